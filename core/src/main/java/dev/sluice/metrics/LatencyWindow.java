package dev.sluice.metrics;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Durations in a {@link Histogram} twice: since the start, for Prometheus (whose histogram buckets
 * must only ever grow), and over the last {@value #SLICES} seconds, in one-second slices, for the
 * quantiles of "now" that JMX and a status page show. A slice is reused a minute later, cleared by
 * the first duration of its new second; a duration recorded while another thread clears it may be
 * lost, which a latency estimate can afford.
 */
final class LatencyWindow {
  static final int SLICES = 60;
  private static final long SLICE_MICROS = 1_000_000;

  private final LongSupplier micros;
  private final Slice all = new Slice();
  private final Slice[] slices = new Slice[SLICES];

  /**
   * @param micros the time in microseconds, as {@code dev.sluice.store.Clock} gives it
   */
  LatencyWindow(LongSupplier micros) {
    this.micros = micros;
    for (int i = 0; i < SLICES; i++) {
      slices[i] = new Slice();
    }
  }

  void record(long nanos) {
    int bucket = Histogram.bucketOf(nanos);
    all.add(bucket, nanos);
    long second = micros.getAsLong() / SLICE_MICROS;
    Slice slice = slices[(int) Math.floorMod(second, (long) SLICES)];
    if (slice.second != second) {
      slice.startOver(second);
    }
    slice.add(bucket, nanos);
  }

  /** What was recorded in the last {@value #SLICES} seconds. */
  Histogram recent() {
    long now = micros.getAsLong() / SLICE_MICROS;
    long[] counts = new long[Histogram.BOUNDS.length + 1];
    long sum = 0;
    for (Slice slice : slices) {
      long second = slice.second;
      if (second <= now && now - second < SLICES) {
        sum += slice.addTo(counts);
      }
    }
    return new Histogram(counts, sum);
  }

  /** What was recorded since this window was made. */
  Histogram total() {
    long[] counts = new long[Histogram.BOUNDS.length + 1];
    long sum = all.addTo(counts);
    return new Histogram(counts, sum);
  }

  private static final class Slice {
    volatile long second = Long.MIN_VALUE;
    final AtomicLongArray counts = new AtomicLongArray(Histogram.BOUNDS.length + 1);
    final AtomicLong sumNanos = new AtomicLong();

    void add(int bucket, long nanos) {
      counts.incrementAndGet(bucket);
      sumNanos.addAndGet(nanos);
    }

    synchronized void startOver(long next) {
      if (second != next) {
        for (int i = 0; i < counts.length(); i++) {
          counts.set(i, 0);
        }
        sumNanos.set(0);
        second = next;
      }
    }

    /** Adds this slice's counts to {@code into}; returns its sum. */
    long addTo(long[] into) {
      for (int i = 0; i < into.length; i++) {
        into[i] += counts.get(i);
      }
      return sumNanos.get();
    }
  }
}
