package dev.sluice.it;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RESET;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the Filter must do in any container, written once; each subclass names the container. The
 * server starts once per class; every scenario has rules or client addresses of its own. Counting
 * scenarios use token buckets of 1h: they have no window boundary to cross mid-test, so the
 * remaining counts are exact; the Retry-After scenarios use 1s windows of every algorithm.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FilterScenarios {
  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      exclude: [/health]
      rules:
        - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket }
        - { id: dispatch, match: { path: [/forward, /include, /boom, /error-page, /async] },
            key: ip, limit: 4, window: 1h, algorithm: token_bucket }
        - { id: login, match: { path: /login }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket }
        - { id: health-trap, match: { path: /health }, key: ip, limit: 1, window: 1h }
        - { id: algo-fixed, match: { path: /algo/fixed }, key: ip, limit: 2, window: 1s,
            algorithm: fixed_window }
        - { id: algo-sliding, match: { path: /algo/sliding }, key: ip, limit: 2, window: 1s,
            algorithm: sliding_window }
        - { id: algo-bucket, match: { path: /algo/bucket }, key: ip, limit: 2, window: 1s,
            algorithm: token_bucket }
      """
          + OwnBodyChecks.RULE
          + PerUserChecks.RULE
          + AdminChecks.RULE
          + CorsChecks.SECTION
          + AdminChecks.SECTION;

  private Deployment deployment;
  Http http;

  /** The container under test; called once. */
  abstract Container container();

  @BeforeAll
  void start() throws Exception {
    deployment = Deployment.start(container(), RULES);
    http = deployment.http();
  }

  @AfterAll
  void stop() throws Exception {
    if (deployment != null) {
      deployment.stop();
    }
  }

  /**
   * The app logs its users in itself (LoginFilter, after Sluice's first mapping); the mapping with
   * {@code decide: after_login} after it decides the per-user rule once the user is known.
   */
  @Test
  void eachUserLoggedInByTheAppHasALimitOfItsOwn() throws Exception {
    PerUserChecks.assertEachUserHasALimitOfTheirOwn(http, "10.0.9.1");
  }

  @Test
  void countsDownThenRejectsWith429WithoutCallingTheApp() throws Exception {
    int served = http.served();
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = http.get("/api/hello", "10.0.1.1");
      assertThat(allowed.statusCode()).isEqualTo(200);
      assertThat(allowed.body()).isEqualTo("hello");
      assertThat(number(allowed, LIMIT)).isEqualTo(3);
      assertThat(number(allowed, REMAINING))
          .as("permits left after request %d", i)
          .isEqualTo(3 - i);
      assertThat(number(allowed, RESET)).isBetween(1L, 3600L);
      assertThat(allowed.headers().firstValue(RETRY_AFTER)).isEmpty();
    }
    HttpResponse<String> denied = http.get("/api/hello", "10.0.1.1");
    assertRejected(denied, "hello");
    assertThat(number(denied, LIMIT)).isEqualTo(3);
    assertThat(number(denied, REMAINING)).isZero();
    assertThat(number(denied, RESET)).isBetween(1L, 3600L);
    assertThat(http.served() - served).as("requests the app served").isEqualTo(3);
  }

  /** Exhausts a 2-per-second rule, waits exactly the Retry-After it was given, and is let in. */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"fixed, 10.0.2.1", "sliding, 10.0.2.2", "bucket, 10.0.2.3"})
  void retryAfterIsEnough(String algorithm, String client) throws Exception {
    String path = "/algo/" + algorithm;
    HttpResponse<String> denied = null;
    int allowed = 0;
    // A fixed window may roll over mid-burst and allow a few more; 10 tries always end in a 429.
    for (int i = 0; i < 10 && denied == null; i++) {
      HttpResponse<String> response = http.get(path, client);
      if (response.statusCode() == 429) {
        denied = response;
      } else {
        assertThat(response.statusCode()).isEqualTo(200);
        allowed++;
      }
    }
    assertThat(allowed).isGreaterThanOrEqualTo(2);
    assertThat(denied).as("a 429 within 10 requests at 2/s").isNotNull();
    long retryAfter = assertRejected(denied, "algo-" + algorithm);
    assertThat(retryAfter).as("Retry-After of a 1s window").isBetween(1L, 2L);
    Thread.sleep(retryAfter * 1000);
    assertThat(http.get(path, client).statusCode()).isEqualTo(200);
  }

  /**
   * The limit of 4 covers the entry path and, for the error page, the dispatch target too: a second
   * count in any dispatch would end the run early. The forward, include and async targets lie under
   * the {@code hello} rule, which must never have seen this client.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "/forward, 200, hello, 10.0.3.1",
    "/include, 200, included:hello, 10.0.3.2",
    "/boom, 500, error-page, 10.0.3.3",
    "/async, 200, hello, 10.0.3.4"
  })
  void aDispatchedRequestTakesOnePermit(String path, int status, String body, String client)
      throws Exception {
    Dispatches.assertTakesOnePermit(http, path, status, body, client);
  }

  /**
   * Spellings a container routes to /login must all count against the login rule. A container may
   * refuse some with 400 instead; what it may never do is serve one unlimited.
   */
  @Test
  void everySpellingOfAPathCountsAgainstItsRule() throws Exception {
    List<String> spellings =
        List.of(
            "/login;x=1",
            "//login",
            "/%6cogin",
            "/login/",
            "/api/..;/login",
            "/login",
            "/login;x=1",
            "//login",
            "/%6cogin");
    int served = http.served();
    List<String> seen = new ArrayList<>();
    int allowed = 0;
    int denied = 0;
    for (String spelling : spellings) {
      HttpResponse<String> response = http.get(spelling, "10.0.4.1");
      seen.add(spelling + " " + response.statusCode());
      if (response.statusCode() == 400) {
        continue; // Refused by the container: never reached the app.
      }
      assertThat(number(response, LIMIT)).as("login rule applied to " + spelling).isEqualTo(3);
      if (response.statusCode() == 200) {
        allowed++;
        assertThat(number(response, REMAINING))
            .as("permits left after " + spelling)
            .isEqualTo(3 - allowed);
      } else {
        denied++;
        assertRejected(response, "login");
      }
    }
    assertThat(allowed).as("allowed of %s", seen).isEqualTo(3);
    assertThat(denied).as("denied of %s", seen).isGreaterThanOrEqualTo(1);
    assertThat(http.served() - served).as("served of %s", seen).isEqualTo(3);
  }

  @Test
  void corsPreflightsPassUncountedAndA429IsReadableByTheListedOrigin() throws Exception {
    CorsChecks.assertPreflightsUncountedAndA429Readable(http, "10.0.7.1");
  }

  @Test
  void aRuleAnswersWithItsOwnStatusAndBodyOfTheRightLength() throws Exception {
    OwnBodyChecks.assertTheRulesOwnRejection(http, "10.0.8.1");
  }

  @Test
  void theAdminEndpointAnswersTheOperatorUncounted() throws Exception {
    AdminChecks.assertStatusMetricsAndPageAnswerTheOperatorUncounted(http);
  }

  @Test
  void theAdminEndpointRefusesLikeAnUnknownPath() throws Exception {
    AdminChecks.assertRefusalsLookLikeAnUnknownPath(http);
  }

  @Test
  void theAdminEndpointShowsTheFileRulesButNeverWritesThem() throws Exception {
    AdminChecks.assertFileRulesAreReadButNeverWritten(http);
  }

  /** /health matches a rule of limit 1 too, but exclusion wins: never limited, no headers. */
  @Test
  void anExcludedPathIsNeverLimited() throws Exception {
    int served = http.served();
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> response = http.get("/health", "10.0.5.1");
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().map().keySet())
          .noneMatch(name -> name.regionMatches(true, 0, "X-RateLimit-", 0, 12))
          .noneMatch(name -> name.equalsIgnoreCase(RETRY_AFTER));
    }
    assertThat(http.served() - served).isEqualTo(5);
  }
}
