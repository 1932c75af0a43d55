package dev.sluice.it;

import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

/**
 * The check that a dispatched request (forward, include, error page, async) takes one permit, for
 * the Filter and the agent alike. The rule {@code dispatch} allows 4 per client on the entry paths;
 * the dispatch targets lie under the {@code hello} rule (3 per client), which must never have seen
 * the client: a second count in any dispatch would end the run of 4 early.
 */
public final class Dispatches {
  private Dispatches() {}

  public static void assertTakesOnePermit(
      Http http, String path, int status, String body, String client) throws Exception {
    int served = http.served();
    for (int i = 1; i <= 4; i++) {
      HttpResponse<String> response = http.get(path, client);
      assertThat(response.statusCode()).as("request %d to %s", i, path).isEqualTo(status);
      assertThat(response.body()).isEqualTo(body);
      assertThat(number(response, REMAINING))
          .as("permits left after request %d", i)
          .isEqualTo(4 - i);
    }
    assertRejected(http.get(path, client), "dispatch");
    assertThat(http.served() - served).as("requests the app served").isEqualTo(4);
    HttpResponse<String> direct = http.get("/api/hello", client);
    assertThat(direct.statusCode()).isEqualTo(200);
    assertThat(number(direct, REMAINING)).as("hello permits left after one").isEqualTo(2);
  }
}
