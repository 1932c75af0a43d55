package dev.sluice.bench;

import java.util.Arrays;

/**
 * What counting costs a decision, measured so that a shared machine's drifts cancel out: two {@link
 * DecisionBench}es, metrics on and off, in one JVM, timed in alternating batches of the same
 * requests; the medians of the batches and their ratio. JMH cannot interleave two variants, and on
 * a machine whose speed wanders by more than the few percent sought, runs one after the other
 * compare the machine's moods rather than the variants.
 *
 * <p>Arguments: keys (default 1), outcome ({@code allow} or {@code deny}), rules to drop (as {@code
 * DecisionBench}'s {@code drop}).
 */
public final class MetricsPrice {
  private static final int BATCH = 200_000;
  private static final int WARMUP_ROUNDS = 10;
  private static final int ROUNDS = 40;

  private MetricsPrice() {}

  public static void main(String[] args) throws Exception {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    String outcome = args.length > 1 ? args[1] : "allow";
    String drop = args.length > 2 ? args[2] : "none";
    DecisionBench on = bench(keys, outcome, drop, "on");
    DecisionBench off = bench(keys, outcome, drop, "off");
    int[] order = KeyedBench.shuffled(keys);
    double[] onNanos = new double[ROUNDS];
    double[] offNanos = new double[ROUNDS];
    int expected = 0;
    for (int round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
      // Alternate which goes first, so neither always follows the other's garbage.
      boolean onFirst = (round & 1) == 0;
      for (DecisionBench bench : onFirst ? Arrays.asList(on, off) : Arrays.asList(off, on)) {
        long start = System.nanoTime();
        for (int i = 0; i < BATCH; i++) {
          expected += bench.take(order[i % keys]) == bench.expectAllowed() ? 1 : 0;
        }
        double nanos = (System.nanoTime() - start) / (double) BATCH;
        if (round >= 0) {
          (bench == on ? onNanos : offNanos)[round] = nanos;
        }
      }
    }
    if (expected != 2 * BATCH * (WARMUP_ROUNDS + ROUNDS)) {
      throw new IllegalStateException("some decision took the other path: " + expected);
    }
    Arrays.sort(onNanos);
    Arrays.sort(offNanos);
    double onMedian = onNanos[ROUNDS / 2];
    double offMedian = offNanos[ROUNDS / 2];
    System.out.printf(
        "keys=%d outcome=%s drop=%s: metrics on %.1f ns, off %.1f ns (medians of %d batches of"
            + " %d), on / off %.3f%n",
        keys, outcome, drop, onMedian, offMedian, ROUNDS, BATCH, onMedian / offMedian);
  }

  private static DecisionBench bench(int keys, String outcome, String drop, String metrics)
      throws Exception {
    DecisionBench bench = new DecisionBench();
    bench.keys = keys;
    bench.outcome = outcome;
    bench.drop = drop;
    bench.metrics = metrics;
    bench.fill();
    return bench;
  }
}
