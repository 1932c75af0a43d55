package dev.sluice.it.agent.dist;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RESET;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.Consumer;

/** What every server distribution must show with the agent: limits where a rule is, none elsewhere. */
final class DistributionChecks {
  private DistributionChecks() {}

  /**
   * {@code limit} requests of {@code client} to {@code path} served, each with the app's own body
   * ({@code appBody} checks it) and the permits counting down, then a 429 of {@code rule}; another
   * client still served.
   */
  static void assertCountsDownThenRejects(
      Http http, String path, String rule, int limit, String client, Consumer<String> appBody)
      throws Exception {
    for (int i = 1; i <= limit; i++) {
      HttpResponse<String> allowed = http.get(path, client);
      assertThat(allowed.statusCode()).isEqualTo(200);
      appBody.accept(allowed.body());
      assertThat(number(allowed, LIMIT)).isEqualTo(limit);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(limit - i);
      // A sliding window is whole again only once its requests have left the previous window.
      assertThat(number(allowed, RESET)).isBetween(1L, 7200L);
      assertThat(allowed.headers().firstValue(RETRY_AFTER)).isEmpty();
    }
    HttpResponse<String> denied = http.get(path, client);
    assertRejected(denied, rule);
    assertThat(number(denied, REMAINING)).isZero();
    assertThat(http.get(path, client + "0").statusCode())
        .as("another client has its own limit")
        .isEqualTo(200);
  }

  /** Each of {@code paths}, asked four times, served without a rate-limit header. */
  static void assertUntouched(Http http, List<String> paths, String client) throws Exception {
    for (String path : paths) {
      for (int i = 0; i < 4; i++) {
        HttpResponse<String> response = http.get(path, client);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        assertThat(response.headers().map().keySet())
            .as(path)
            .noneMatch(name -> name.regionMatches(true, 0, "X-RateLimit-", 0, 12));
      }
    }
  }
}
