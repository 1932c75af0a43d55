package dev.sluice.admin;

import dev.sluice.metrics.RuleStats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What each rule had counted, every {@value #INTERVAL_SECONDS} seconds for the last {@value
 * #POINTS} of them, so the status page draws the minutes before it was opened; and with each point
 * the busiest second since the one before, so a burst shorter than a point is not averaged away. It
 * samples the counters the metrics keep anyway, when asked to by whatever runs often (the config
 * watcher's poll, about every second, and a status request), so the request path pays nothing and
 * no thread of its own is needed. It reads counts only, never the top limited clients.
 */
final class History {
  static final int INTERVAL_SECONDS = 10;
  static final int POINTS = 60;

  /**
   * The shortest step a rate is made over: a status request a moment after the poll would make one
   * of a handful of requests. Under a second, as the poll comes every second give or take.
   */
  static final long STEP_MILLIS = 900;

  private static final int COUNTS = 3;

  private final ArrayDeque<Point> points = new ArrayDeque<>();
  private long stepMillis;
  private Map<String, long[]> stepCounts; // null before the first step
  private Map<String, double[]> peaks = new HashMap<>();

  /**
   * What the rules in force had allowed, denied and shadow-denied at {@code millis}, and for those
   * measured since the last point, the most of each in one second (a step of {@link #STEP_MILLIS}
   * or more) since then.
   */
  static final class Point {
    final long millis;
    final Map<String, long[]> counts;
    final Map<String, double[]> peaksPerSecond;

    Point(long millis, Map<String, long[]> counts, Map<String, double[]> peaksPerSecond) {
      this.millis = millis;
      this.counts = counts;
      this.peaksPerSecond = peaksPerSecond;
    }
  }

  /**
   * Reads {@code rules} if a step or a point is due at {@code millis}, and keeps a point if the
   * interval it falls in has none.
   */
  synchronized void sample(long millis, Supplier<List<RuleStats>> rules) {
    Point last = points.peekLast();
    boolean pointDue = last == null || intervalOf(last.millis) < intervalOf(millis);
    boolean stepDue = stepCounts == null || millis - stepMillis >= STEP_MILLIS;
    if (!pointDue && !stepDue) {
      return;
    }
    Map<String, long[]> counts = countsOf(rules.get());
    if (stepDue) {
      step(millis, counts);
    }
    if (pointDue) {
      points.addLast(new Point(millis, counts, peaks));
      peaks = new HashMap<>();
      while (points.size() > POINTS) {
        points.removeFirst();
      }
    }
  }

  /** Oldest first. */
  synchronized List<Point> points() {
    return new ArrayList<>(points);
  }

  private void step(long millis, Map<String, long[]> counts) {
    double seconds = (millis - stepMillis) / 1e3;
    for (Map.Entry<String, long[]> rule : counts.entrySet()) {
      long[] before = stepCounts == null ? null : stepCounts.get(rule.getKey());
      if (before == null) {
        continue;
      }
      double[] peak = peaks.computeIfAbsent(rule.getKey(), id -> new double[COUNTS]);
      for (int i = 0; i < COUNTS; i++) {
        // A count that went down started over (the rule was gone for two reloads): no rate.
        peak[i] = Math.max(peak[i], Math.max(0, rule.getValue()[i] - before[i]) / seconds);
      }
    }
    stepMillis = millis;
    stepCounts = counts;
  }

  private static Map<String, long[]> countsOf(List<RuleStats> rules) {
    Map<String, long[]> counts = new LinkedHashMap<>();
    for (RuleStats rule : rules) {
      counts.put(rule.ruleId(), new long[] {rule.allowed(), rule.denied(), rule.shadowDenied()});
    }
    return counts;
  }

  private static long intervalOf(long millis) {
    return millis / (INTERVAL_SECONDS * 1000L);
  }
}
