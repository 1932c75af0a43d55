package dev.sluice.admin;

import static dev.sluice.admin.AdminTesting.get;
import static dev.sluice.admin.AdminTesting.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each history point keeps, beside the counts (whose difference is the average over the point), the
 * busiest second of its span: a short burst must not be averaged away.
 */
class HistoryPeakTest {
  private static final String RULES =
      "rules:\n  - { id: everything, match: { path: /** }, key: ip, limit: 1, window: 1h }\n";

  private final AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.1/32");

  private void deny(int requests) {
    for (int i = 0; i < requests; i++) {
      t.limiter.decide(TestRequest.get("/x").from("198.51.100.7"));
    }
  }

  /** One second of {@code requests} denied requests, then the config poll's sample. */
  private void second(int requests) {
    deny(requests);
    t.clock.advanceSeconds(1);
    t.admin.sample();
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> points() throws Exception {
    var exchange = get("/_sluice/status", "127.0.0.1", null);
    assertThat(t.admin.answered(exchange)).isTrue();
    Map<String, Object> history = (Map<String, Object>) json(exchange.body).get("history");
    return (List<Map<String, Object>>) history.get("points");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> rule(Map<String, Object> point) {
    return (Map<String, Object>) ((Map<String, Object>) point.get("rules")).get("everything");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aFiveSecondBurstOf5000ASecondPeaksAt5000InATenSecondPoint() throws Exception {
    t.limiter.decide(TestRequest.get("/x").from("198.51.100.7")); // the one allowed
    t.admin.sample(); // the first point, at the start of an interval
    for (int s = 0; s < History.INTERVAL_SECONDS; s++) {
      second(s >= 3 && s < 8 ? 5_000 : 0);
    }
    List<Map<String, Object>> points = points();
    assertThat(points).hasSize(2);
    assertThat(rule(points.get(0))).doesNotContainKey("peakPerSecond"); // nothing before it
    Map<String, Object> burst = rule(points.get(1));
    long denied = ((Number) burst.get("denied")).longValue();
    long before = ((Number) rule(points.get(0)).get("denied")).longValue();
    assertThat((denied - before) / (double) History.INTERVAL_SECONDS)
        .as("the average")
        .isEqualTo(2_500.0);
    assertThat(burst).containsKey("peakPerSecond");
    Map<String, Object> peak = (Map<String, Object>) burst.get("peakPerSecond");
    assertThat(((Number) peak.get("denied")).doubleValue()).isEqualTo(5_000.0);
    assertThat(((Number) peak.get("allowed")).doubleValue()).isZero();
    assertThat(((Number) peak.get("shadowDenied")).doubleValue()).isZero();
  }

  @Test
  @SuppressWarnings("unchecked")
  void eachPointPeaksOverItsOwnSpanOnlyAndStepsOfAMomentMakeNoRate() throws Exception {
    t.admin.sample();
    for (int s = 0; s < History.INTERVAL_SECONDS; s++) {
      second(s == 0 ? 300 : 10);
    }
    for (int s = 0; s < History.INTERVAL_SECONDS; s++) {
      // A status read a moment after each poll samples too: no rate of 10 in 50 ms = 200/s.
      second(20);
      deny(10);
      t.clock.advance(50_000);
      points();
    }
    List<Map<String, Object>> points = points();
    assertThat(points).hasSize(3);
    assertThat(rule(points.get(1))).containsKey("peakPerSecond");
    Map<String, Object> first = (Map<String, Object>) rule(points.get(1)).get("peakPerSecond");
    Map<String, Object> second = (Map<String, Object>) rule(points.get(2)).get("peakPerSecond");
    assertThat(((Number) first.get("denied")).doubleValue()).isEqualTo(299.0); // one allowed
    assertThat(((Number) second.get("denied")).doubleValue()).isBetween(20.0, 30.0);
  }
}
