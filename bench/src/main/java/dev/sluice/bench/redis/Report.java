package dev.sluice.bench.redis;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Collects what a run measured and prints it as Markdown tables, with the targets. */
final class Report {
  private static final String SLUICE = RedisLoad.NAMES.get("sluice");
  private static final String BUCKET4J = RedisLoad.NAMES.get("bucket4j");
  private static final String BATCHING = RedisLoad.NAMES.get("batching");

  /** One phase: who, where, how hard, and what the server and this JVM spent on it. */
  record Phase(
      String limiter,
      int keys,
      int threads,
      double targetRate,
      LoadRun.Result result,
      Map<String, Double> redisDelta,
      double jvmCpuSeconds,
      double phaseSeconds,
      int breakerTrips) {
    /** Server counter {@code stat} per decision, over the whole phase. */
    double per(String stat) {
      return redisDelta.get(stat) / result.allCalls();
    }
  }

  private final PrintStream out;
  private final List<Phase> phases = new ArrayList<>();
  private final List<Ceiling.Row> ceiling = new ArrayList<>();
  private double sluiceBytesPerKey = Double.NaN;

  Report(PrintStream out) {
    this.out = out;
  }

  void add(Phase phase) {
    phases.add(phase);
    out.println(row(phase));
    out.flush();
  }

  void add(Ceiling.Row r) {
    if (ceiling.isEmpty()) {
      out.println(Ceiling.Row.HEADER);
    }
    ceiling.add(r);
    out.println(r);
  }

  void memory(double sluiceBytesPerKey) {
    this.sluiceBytesPerKey = sluiceBytesPerKey;
  }

  /** The closed-loop phase of {@code limiter} on {@code keys} keys with the highest rate. */
  Phase best(String limiter, int keys) {
    return phases.stream()
        .filter(p -> p.limiter.equals(limiter) && p.keys == keys && p.targetRate == 0)
        .max((a, b) -> Double.compare(a.result.perSecond(), b.result.perSecond()))
        .orElse(null);
  }

  private double rate(String limiter, int keys, int threads) {
    return phases.stream()
        .filter(p -> p.limiter.equals(limiter) && p.keys == keys && p.threads == threads)
        .filter(p -> p.targetRate == 0)
        .mapToDouble(p -> p.result.perSecond())
        .findFirst()
        .orElse(Double.NaN);
  }

  static String header() {
    return "| keys | threads | limiter | target/s | decisions/s | p50 µs | p99 µs | p99.9 µs | max"
        + " µs | errors | breaker opened | scripts/decision | decisions/read | Redis CPU |"
        + " JVM CPU |\n"
        + "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        + " ---: | ---: | ---: | ---: |";
  }

  private static String row(Phase p) {
    Histogram h = p.result.latency();
    return String.format(
        Locale.ROOT,
        "| %s | %d | %s | %s | %,.0f | %s | %s | %s | %s | %d | %d | %.2f | %.2f | %.0f %% | %.0f"
            + " %% |",
        p.keys == 1 ? "1 (hot)" : String.format(Locale.ROOT, "%,d", p.keys),
        p.threads,
        p.limiter,
        p.targetRate == 0 ? "max" : String.format(Locale.ROOT, "%,.0f", p.targetRate),
        p.result.perSecond(),
        micros(h.getValueAtPercentile(50)),
        micros(h.getValueAtPercentile(99)),
        micros(h.getValueAtPercentile(99.9)),
        micros(h.getMaxValue()),
        p.result.errors(),
        p.breakerTrips,
        p.per("scripts"),
        1 / p.per("reads"),
        100 * p.redisDelta.get("cpu") / p.phaseSeconds,
        100 * p.jvmCpuSeconds / p.phaseSeconds);
  }

  /** Open-loop phases again, with the service time (from the actual send) next to the latency. */
  void printOpenLoop() {
    out.println(
        "\n| keys | limiter | threads | target/s | achieved/s | latency p50 / p99 / p99.9 µs"
            + " | service time p50 / p99 / p99.9 µs |");
    out.println("| ---: | --- | ---: | ---: | ---: | --- | --- |");
    for (Phase p : phases) {
      if (p.targetRate > 0) {
        out.printf(
            Locale.ROOT,
            "| %,d | %s | %d | %,.0f | %,.0f | %s | %s |%n",
            p.keys,
            p.limiter,
            p.threads,
            p.targetRate,
            p.result.perSecond(),
            percentiles(p.result.latency()),
            percentiles(p.result.service()));
      }
    }
  }

  /** Sluice ÷ each other limiter, per keys and threads. */
  void printRatios(int[] keyCounts, int[] threadCounts) {
    List<String> others =
        phases.stream().map(Phase::limiter).distinct().filter(l -> !l.equals(SLUICE)).toList();
    if (others.isEmpty() || phases.stream().noneMatch(p -> p.limiter.equals(SLUICE))) {
      return;
    }
    out.print("\n| keys | threads | Sluice decisions/s");
    others.forEach(o -> out.print(" | Sluice ÷ " + o));
    out.println(" |");
    out.println("| ---: | ---: | ---:" + " | ---:".repeat(others.size()) + " |");
    for (int keys : keyCounts) {
      for (int threads : threadCounts) {
        double s = rate(SLUICE, keys, threads);
        out.printf(Locale.ROOT, "| %,d | %d | %,.0f", keys, threads, s);
        others.forEach(o -> out.printf(Locale.ROOT, " | %.2f×", s / rate(o, keys, threads)));
        out.println(" |");
      }
    }
  }

  /**
   * The issues' targets, from whatever this run measured: issue 29's for the ceiling, the hot key
   * and the open loop, the first Redis issue's for the rest.
   */
  void printTargets(int threads) {
    out.printf("%nTargets (%d threads):%n", threads);
    double many = rate(SLUICE, 10_000, threads);
    double vsBucket4j = many / rate(BUCKET4J, 10_000, threads);
    target("10k keys: Sluice ÷ Bucket4j (>= 3)", vsBucket4j, vsBucket4j >= 3);
    double vsCeiling = many / pipelined(10_000);
    target("10k keys: Sluice ÷ pipelined ceiling (>= 0.8)", vsCeiling, vsCeiling >= 0.8);
    double hot = rate(SLUICE, 1, threads);
    double vsBatching = hot / rate(BATCHING, 1, threads);
    target("hot key: Sluice ÷ Bucket4j batching (>= 1.2)", vsBatching, vsBatching >= 1.2);
    double hotVsCeiling = hot / pipelined(1);
    target("hot key: Sluice ÷ pipelined ceiling (>= 0.5)", hotVsCeiling, hotVsCeiling >= 0.5);
    for (Phase p : phases) {
      if (p.targetRate > 0 && p.limiter.equals(SLUICE)) {
        double p99 = p.result.latency().getValueAtPercentile(99) / 1e6;
        target("p99 ms at half the highest rate, keys " + p.keys + " (< 2)", p99, p99 < 2);
      }
    }
    target(
        "Redis bytes per key with its TTL (<= 120)", sluiceBytesPerKey, sluiceBytesPerKey <= 120);
  }

  private double pipelined(int keys) {
    return ceiling.stream()
        .filter(r -> r.keys() == keys && r.pipeline() > 1)
        .mapToDouble(Ceiling.Row::rps)
        .findFirst()
        .orElse(Double.NaN);
  }

  private void target(String what, double value, boolean met) {
    if (!Double.isNaN(value)) {
      out.printf(Locale.ROOT, "  %-52s %8.2f %s%n", what, value, met ? "met" : "MISSED");
    }
  }

  private static String percentiles(Histogram h) {
    return micros(h.getValueAtPercentile(50))
        + " / "
        + micros(h.getValueAtPercentile(99))
        + " / "
        + micros(h.getValueAtPercentile(99.9));
  }

  private static String micros(long nanos) {
    return String.format(Locale.ROOT, nanos >= 10_000_000 ? "%,.0f" : "%,.1f", nanos / 1000.0);
  }
}
