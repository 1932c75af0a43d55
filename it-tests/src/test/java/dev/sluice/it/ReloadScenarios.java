package dev.sluice.it;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Editing ratelimit.yaml under a running container, written once. Rule {@code reload-a} changes its
 * limit from test to test (each test waits for its own value, so order does not matter); rule
 * {@code reload-b} never changes, and each test spends it as a client of its own to see whether a
 * reload kept the count.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReloadScenarios {
  /** The promise: a valid change is in force within 2 s. */
  private static final Duration IN_FORCE_WITHIN = Duration.ofSeconds(2);

  /** Longer than that promise, so an invalid file had every chance to be (wrongly) applied. */
  private static final long IGNORED_AFTER_MILLIS = 2_500;

  private Deployment deployment;
  private WebApp app;
  private Http http;

  /** The container under test; called once. */
  abstract Container container();

  /**
   * Rules with limit {@code a} on /reload/a and {@code b} on /reload/b, each per 1h and client.
   * Token buckets have no window boundary that a test could straddle, so counts are exact.
   */
  private static String rules(int a, int b) {
    return """
           client_ip: { trusted_proxies: [127.0.0.1/32] }
           rules:
             - id: reload-a
               match: { path: /reload/a }
               key: ip
               limit: %d
               window: 1h
               algorithm: token_bucket
             - id: reload-b
               match: { path: /reload/b }
               key: ip
               limit: %d
               window: 1h
               algorithm: token_bucket
           """
        .formatted(a, b);
  }

  @BeforeAll
  void start() throws Exception {
    deployment = Deployment.start(container(), rules(2, 5));
    http = deployment.http();
    app = deployment.app();
  }

  @AfterAll
  void stop() throws Exception {
    if (deployment != null) {
      deployment.stop();
    }
  }

  @Test
  void anAtomicReplaceIsInForceWithinTwoSecondsAndKeepsCounts() throws Exception {
    spend("/reload/b", "10.1.0.1", 3);
    app.replaceConfig(rules(7, 5));
    assertThat(timeUntilLimit("/reload/a", 7, "10.1.0.2")).isLessThanOrEqualTo(IN_FORCE_WITHIN);
    assertThat(number(http.get("/reload/b", "10.1.0.1"), REMAINING))
        .as("reload-b permits left: 5, minus 3 before the reload, minus this one")
        .isEqualTo(1);
  }

  @Test
  void anInPlaceRewriteIsInForceWithinTwoSecondsAndKeepsCounts() throws Exception {
    spend("/reload/b", "10.1.1.1", 2);
    app.rewriteConfig(rules(9, 5));
    assertThat(timeUntilLimit("/reload/a", 9, "10.1.1.2")).isLessThanOrEqualTo(IN_FORCE_WITHIN);
    assertThat(number(http.get("/reload/b", "10.1.1.1"), REMAINING)).isEqualTo(2);
  }

  /** Each bad file also changes reload-b, so even a half-applied file would show. */
  @Test
  void anInvalidFileLeavesTheLastGoodRulesInForce() throws Exception {
    app.replaceConfig(rules(11, 5));
    assertThat(timeUntilLimit("/reload/a", 11, "10.1.2.2")).isLessThanOrEqualTo(IN_FORCE_WITHIN);
    spend("/reload/a", "10.1.2.1", 1);

    app.replaceConfig(rules(0, 50));
    Thread.sleep(IGNORED_AFTER_MILLIS);
    assertInForce("/reload/a", "10.1.2.1", 11, 9);
    assertInForce("/reload/b", "10.1.2.1", 5, 4);

    app.rewriteConfig(rules(13, 50).replace("    limit: 13", "  limit: 13")); // bad indentation
    Thread.sleep(IGNORED_AFTER_MILLIS);
    assertInForce("/reload/a", "10.1.2.1", 11, 8);
    assertInForce("/reload/b", "10.1.2.1", 5, 3);

    // The watcher survived the bad files: the next good one is picked up as promptly.
    app.replaceConfig(rules(13, 5));
    assertThat(timeUntilLimit("/reload/a", 13, "10.1.2.3")).isLessThanOrEqualTo(IN_FORCE_WITHIN);
  }

  private void spend(String path, String client, int permits) throws Exception {
    for (int i = 0; i < permits; i++) {
      assertThat(http.get(path, client).statusCode()).isEqualTo(200);
    }
  }

  private void assertInForce(String path, String client, long limit, long remaining)
      throws Exception {
    HttpResponse<String> response = http.get(path, client);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(number(response, LIMIT)).as("limit of " + path).isEqualTo(limit);
    assertThat(number(response, REMAINING)).as("remaining of " + path).isEqualTo(remaining);
  }

  /**
   * Polls {@code path} as {@code probe} until it reports {@code limit}; returns how long that took
   * since the file was written. Gives up after twice the promise, so a slow reload still reports
   * its time.
   */
  private Duration timeUntilLimit(String path, long limit, String probe) throws Exception {
    long start = System.nanoTime();
    long deadline = start + 2 * IN_FORCE_WITHIN.toNanos();
    for (int poll = 0; poll < 200 && System.nanoTime() < deadline; poll++) {
      if (number(http.get(path, probe), LIMIT) == limit) {
        return Duration.ofNanos(System.nanoTime() - start);
      }
      Thread.sleep(20);
    }
    throw new AssertionError(
        "limit "
            + limit
            + " not in force on "
            + path
            + " after "
            + Duration.ofNanos(System.nanoTime() - start).toMillis()
            + " ms");
  }
}
