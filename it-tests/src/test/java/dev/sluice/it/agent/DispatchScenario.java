package dev.sluice.it.agent;

import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Forward, include, an error page and an async re-dispatch each enter the servlet layer again: the
 * request is still counted once. The targets lie under the {@code hello} rule, which must never
 * have seen the client; a second count anywhere would end the run of 4 early.
 */
abstract class DispatchScenario extends AgentScenario {
  @Override
  String rules() {
    return helloRules(
        3,
        """
          - { id: dispatch, match: { path: [/forward, /include, /boom, /error-page, /async] },
              key: ip, limit: 4, window: 1h, algorithm: token_bucket }
        """);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "/forward, 200, hello, 10.3.0.1",
    "/include, 200, included:hello, 10.3.0.2",
    "/boom, 500, error-page, 10.3.0.3",
    "/async, 200, hello, 10.3.0.4"
  })
  void aDispatchedRequestTakesOnePermit(String path, int status, String body, String client)
      throws Exception {
    int served = http.served();
    for (int i = 1; i <= 4; i++) {
      HttpResponse<String> response = http.get(path, client);
      assertThat(response.statusCode()).as("request %d to %s", i, path).isEqualTo(status);
      assertThat(response.body()).isEqualTo(body);
      assertThat(number(response, REMAINING)).as("left after request %d", i).isEqualTo(4 - i);
    }
    assertRejected(http.get(path, client), "dispatch");
    assertThat(http.served() - served).as("requests the app served").isEqualTo(4);
    HttpResponse<String> direct = http.get("/api/hello", client);
    assertThat(direct.statusCode()).isEqualTo(200);
    assertThat(number(direct, REMAINING)).as("hello permits left after one").isEqualTo(2);
  }
}
