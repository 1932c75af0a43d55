package dev.sluice.it.agent;

import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The agent and Sluice's web.xml Filter in one app, both reading the same rules: the agent decides
 * first and marks the request, the Filter sees the mark and lets it be, so nothing counts twice.
 */
abstract class WithFilterScenario extends AgentScenario {
  @Override
  String rules() {
    return helloRules(
        3,
        """
          - { id: dispatch, match: { path: /forward }, key: ip, limit: 3, window: 1h,
              algorithm: token_bucket }
        """);
  }

  @Override
  AgentWebApp.Part[] parts() {
    return new AgentWebApp.Part[] {AgentWebApp.Part.SLUICE_FILTER};
  }

  @Test
  void eachRequestIsCountedOnce() throws Exception {
    for (String path : new String[] {"/api/hello", "/forward"}) {
      int served = http.served();
      for (int i = 1; i <= 3; i++) {
        HttpResponse<String> allowed = http.get(path, "10.4.0.1");
        assertThat(allowed.statusCode()).as("request %d to %s", i, path).isEqualTo(200);
        assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
      }
      assertRejected(http.get(path, "10.4.0.1"), path.equals("/forward") ? "dispatch" : "hello");
      assertThat(http.served() - served).as("requests the app served").isEqualTo(3);
    }
  }
}
