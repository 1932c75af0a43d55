package dev.sluice.admin;

import static dev.sluice.admin.AdminTesting.get;
import static dev.sluice.admin.AdminTesting.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the history and the status cost: the top limited clients (sketches merged, identities
 * hashed) are worked out only for a reader that shows them, and at most once a second.
 */
class StatusCostTest {
  private final AdminTesting t =
      new AdminTesting(
              "rules:\n"
                  + "  - { id: login, match: { path: /login }, key: ip, limit: 1, window: 1h }\n"
                  + "  - { id: watch, match: { path: /* }, key: ip, limit: 2, window: 1h,"
                  + " shadow: true }\n")
          .allow(null, "127.0.0.1/32");

  private void deny(int requests) {
    for (int i = 0; i < requests; i++) {
      t.limiter.decide(TestRequest.get("/login").from("198.51.100.7"));
    }
  }

  private String answer(String path) throws Exception {
    var exchange = get(path, "127.0.0.1", null);
    assertThat(t.admin.answered(exchange)).as(path).isTrue();
    assertThat(exchange.status).as(path).isEqualTo(200);
    return exchange.body;
  }

  @Test
  void theHistoryWorksOutNoTopListsWhetherAPointIsDueOrNot() {
    deny(3);
    for (int second = 0; second < 3 * History.INTERVAL_SECONDS; second++) {
      t.admin.sample();
      t.clock.advanceSeconds(1);
    }
    assertThat(t.metrics.topListsWorkedOut()).isZero();
  }

  @Test
  @SuppressWarnings("unchecked")
  void requestsWithinASecondWorkTheTopListsOutOnceAndStillShowTheCountsOfNow() throws Exception {
    deny(3);
    answer("/_sluice/status");
    assertThat(t.metrics.topListsWorkedOut()).as("one per rule").isEqualTo(2);

    deny(2);
    t.clock.advance(999_000);
    Map<String, Object> json = json(answer("/_sluice/status"));
    String metrics = answer("/_sluice/metrics");
    assertThat(t.metrics.topListsWorkedOut()).as("reused within the second").isEqualTo(2);
    Map<String, Object> rule = ((List<Map<String, Object>>) json.get("rules")).get(0);
    assertThat(rule).containsEntry("denied", 4);
    assertThat(metrics)
        .contains("sluice_rule_decisions_total{rule=\"login\",outcome=\"denied\"} 4");

    t.clock.advance(1_000);
    answer("/_sluice/metrics");
    assertThat(t.metrics.topListsWorkedOut()).as("a second later").isEqualTo(4);
    assertThat(t.metrics.rules().get(0).topLimited().get(0).getDenials()).isEqualTo(4);
  }
}
