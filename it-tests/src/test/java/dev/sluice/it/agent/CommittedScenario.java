package dev.sluice.it.agent;

import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A response the container sent before the servlet layer ran ({@link CommitEarlyValve}, {@link
 * CommitEarlyHandler}) cannot be replaced by a 429: a denied request is let through untouched, and
 * the log says so once.
 */
abstract class CommittedScenario extends AgentScenario {
  @Override
  String rules() {
    return helloRules(2, "");
  }

  @Test
  void aCommittedResponseIsLetThroughUntouched() throws Exception {
    for (int i = 0; i < 2; i++) {
      assertThat(http.get("/api/hello", "10.5.0.1").statusCode()).isEqualTo(200);
    }
    assertRejected(http.get("/api/hello", "10.5.0.1"), "hello");
    int served = http.served();
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> early =
          http.get("/api/hello", "10.5.0.1", CommitEarlyValve.HEADER, "1");
      assertThat(early.statusCode()).isEqualTo(200);
      assertThat(early.body()).isEqualTo("early;hello");
      assertThat(early.headers().firstValue(RETRY_AFTER)).isEmpty();
    }
    assertThat(http.served() - served).as("the app served what was committed").isEqualTo(2);
    assertRejected(http.get("/api/hello", "10.5.0.1"), "hello");
    assertThat(server.jvm().output())
        .containsOnlyOnce(
            "was already committed; it was let through (each kind of failure is logged at most"
                + " once in 5 minutes)");
  }
}
