package dev.sluice.it.agent.robust;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What the tests ask of the responses: limited, unlimited, and how soon a change took effect. */
final class Limits {
  /** The promise of docs/configuration.md: a valid change is in force within two seconds. */
  static final Duration IN_FORCE_WITHIN = Duration.ofSeconds(2);

  /** How long a poll for a change goes on: the promise and a little for the polling itself. */
  static final Duration POLL_FOR = Duration.ofMillis(2_500);

  private static final long POLL_MILLIS = 20;

  /** The rule most tests use: 3 per client per hour, no window boundary to straddle. */
  static final String HELLO_RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket }
      """;

  static final int HELLO_LIMIT = 3;

  private Limits() {}

  /** A condition on one response. */
  interface Check {
    boolean holds(HttpResponse<String> response);
  }

  static boolean hasRateLimitHeaders(HttpResponse<?> response) {
    return response.headers().map().keySet().stream()
        .anyMatch(name -> name.regionMatches(true, 0, "X-RateLimit-", 0, 12));
  }

  /** Served with no rate-limit header: nothing limits {@code path}. */
  static boolean unlimited(HttpResponse<?> response) {
    return response.statusCode() == 200 && !hasRateLimitHeaders(response);
  }

  /** {@code times} requests, each served (200) with no rate-limit header. */
  static void assertUnlimited(Http http, String path, String client, int times) throws Exception {
    for (int i = 1; i <= times; i++) {
      HttpResponse<String> response = http.get(path, client);
      assertThat(response.statusCode()).as("%s request %d", path, i).isEqualTo(200);
      assertThat(hasRateLimitHeaders(response))
          .as("rate-limit headers on %s request %d: %s", path, i, response.headers().map())
          .isFalse();
    }
  }

  /** {@code limit} requests served, counting down, then a 429 from {@code ruleId}. */
  static void assertLimitedTo(Http http, String path, String client, int limit, String ruleId)
      throws Exception {
    for (int i = 1; i <= limit; i++) {
      HttpResponse<String> allowed = http.get(path, client);
      assertThat(allowed.statusCode()).as("%s request %d of %s", path, i, client).isEqualTo(200);
      assertThat(number(allowed, LIMIT)).isEqualTo(limit);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(limit - i);
    }
    assertRejected(http.get(path, client), ruleId);
  }

  /**
   * Polls {@code path} as {@code client} until {@code check} holds and returns how long that took
   * since {@code startNanos} (when the change was written). Gives up after {@link #POLL_FOR}.
   */
  static Duration awaitSince(long startNanos, Http http, String path, String client, Check check)
      throws Exception {
    long deadline = startNanos + POLL_FOR.toNanos();
    HttpResponse<String> last = null;
    for (long poll = 0; poll <= POLL_FOR.toMillis() / POLL_MILLIS; poll++) {
      last = http.get(path, client);
      if (check.holds(last)) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
      }
      if (System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(POLL_MILLIS);
    }
    throw new AssertionError(
        "the change was not in force on "
            + path
            + " after "
            + Duration.ofNanos(System.nanoTime() - startNanos).toMillis()
            + " ms; last response "
            + (last == null ? "none" : last.statusCode() + " " + last.headers().map()));
  }

  /** Reports how long a change took, for the test log. */
  static Duration report(String what, Duration took) {
    System.out.println("[robust] " + what + " in force after " + took.toMillis() + " ms");
    return took;
  }
}
