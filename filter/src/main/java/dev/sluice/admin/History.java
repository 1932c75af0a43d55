package dev.sluice.admin;

import dev.sluice.metrics.RuleStats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each rule had counted, every {@value #INTERVAL_SECONDS} seconds for the last {@value
 * #POINTS} of them, so the status page draws the minutes before it was opened. It samples the
 * counters the metrics keep anyway, when asked to by whatever runs often (the config watcher's
 * poll, a status request), so the request path pays nothing and no thread of its own is needed.
 */
final class History {
  static final int INTERVAL_SECONDS = 10;
  static final int POINTS = 60;

  private final ArrayDeque<Point> points = new ArrayDeque<>();

  /** What the rules in force had allowed, denied and shadow-denied at {@code millis}. */
  static final class Point {
    final long millis;
    final Map<String, long[]> counts = new LinkedHashMap<>();

    Point(long millis, List<RuleStats> rules) {
      this.millis = millis;
      for (RuleStats rule : rules) {
        counts.put(rule.ruleId(), new long[] {rule.allowed(), rule.denied(), rule.shadowDenied()});
      }
    }
  }

  /** Keeps {@code rules} as the point of the interval {@code millis} falls in, if it has none. */
  synchronized void sample(long millis, List<RuleStats> rules) {
    long interval = millis / (INTERVAL_SECONDS * 1000L);
    Point last = points.peekLast();
    if (last != null && last.millis / (INTERVAL_SECONDS * 1000L) >= interval) {
      return;
    }
    points.addLast(new Point(millis, rules));
    while (points.size() > POINTS) {
      points.removeFirst();
    }
  }

  /** Oldest first. */
  synchronized List<Point> points() {
    return new ArrayList<>(points);
  }
}
