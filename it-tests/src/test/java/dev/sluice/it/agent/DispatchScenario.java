package dev.sluice.it.agent;

import dev.sluice.it.Dispatches;
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
    Dispatches.assertTakesOnePermit(http, path, status, body, client);
  }

}
