package dev.sluice.it.store;

import java.util.Arrays;
import java.util.function.BooleanSupplier;

/** Admissions and latency of a run of decisions, for tests that measure an outage. */
final class Outage {
  /** Decisions that may wait for Redis's timeout before the breaker opens. */
  static final int WARMUP = 10;

  final int admitted;
  final long p99AfterWarmupMicros;

  private Outage(int admitted, long p99AfterWarmupMicros) {
    this.admitted = admitted;
    this.p99AfterWarmupMicros = p99AfterWarmupMicros;
  }

  static Outage measure(BooleanSupplier decision, int count) {
    long[] micros = new long[count];
    int admitted = 0;
    for (int i = 0; i < count; i++) {
      long start = System.nanoTime();
      admitted += decision.getAsBoolean() ? 1 : 0;
      micros[i] = (System.nanoTime() - start) / 1_000;
    }
    long[] settled = Arrays.copyOfRange(micros, WARMUP, count);
    Arrays.sort(settled);
    return new Outage(admitted, settled[(int) Math.ceil(settled.length * 0.99) - 1]);
  }
}
