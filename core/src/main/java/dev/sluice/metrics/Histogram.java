package dev.sluice.metrics;

import java.util.Arrays;

/**
 * Durations counted in fixed buckets, as read from a {@link LatencyWindow}: immutable. The buckets
 * are 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6 and 8 times each power of ten from 10 µs to 1 s, then 10 s
 * and above: fine enough that a quantile read from them is within a quarter of the truth, and every
 * bound of the usual Prometheus buckets (0.1, 0.25, 0.5, 1 ms and so on) is one of them, so those
 * counts are exact.
 */
public final class Histogram {
  /** Upper bounds of the buckets in nanoseconds, ascending; one more bucket counts the rest. */
  static final long[] BOUNDS = bounds();

  static final Histogram EMPTY = new Histogram(new long[BOUNDS.length + 1], 0);

  private final long[] counts;
  private final long sumNanos;
  private final long count;

  Histogram(long[] counts, long sumNanos) {
    this.counts = counts;
    this.sumNanos = sumNanos;
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    this.count = n;
  }

  private static long[] bounds() {
    long[] steps = {100, 125, 150, 200, 250, 300, 400, 500, 600, 800};
    long[] bounds = new long[6 * steps.length + 1];
    int i = 0;
    for (long decade = 10_000; decade <= 1_000_000_000L; decade *= 10) {
      for (long step : steps) {
        bounds[i++] = decade * step / 100;
      }
    }
    bounds[i] = 10_000_000_000L;
    return bounds;
  }

  /** The bucket that counts a duration of {@code nanos}. */
  static int bucketOf(long nanos) {
    int at = Arrays.binarySearch(BOUNDS, nanos);
    return at >= 0 ? at : -at - 1;
  }

  public long count() {
    return count;
  }

  public double sumSeconds() {
    return sumNanos / 1e9;
  }

  /** How many durations took at most {@code boundNanos}, which must be one of the bounds. */
  long countAtMost(long boundNanos) {
    int bucket = Arrays.binarySearch(BOUNDS, boundNanos);
    if (bucket < 0) {
      throw new IllegalArgumentException(boundNanos + " ns is no bucket bound");
    }
    long n = 0;
    for (int i = 0; i <= bucket; i++) {
      n += counts[i];
    }
    return n;
  }

  /**
   * The {@code q}-quantile in seconds (0 &lt; q ≤ 1), 0 when nothing was counted: the bucket
   * holding it, read linearly between its bounds. A quantile beyond the last bound reads as that
   * bound.
   */
  public double quantileSeconds(double q) {
    if (count == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(q * count));
    long below = 0;
    for (int i = 0; i < counts.length; i++) {
      if (below + counts[i] >= rank) {
        if (i == BOUNDS.length) {
          return BOUNDS[i - 1] / 1e9;
        }
        long lower = i == 0 ? 0 : BOUNDS[i - 1];
        double within = (double) (rank - below) / counts[i];
        return (lower + within * (BOUNDS[i] - lower)) / 1e9;
      }
      below += counts[i];
    }
    throw new AssertionError("the counts add up to " + count);
  }
}
