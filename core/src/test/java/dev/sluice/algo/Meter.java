package dev.sluice.algo;

/** One identity under one quota, with a hand-driven clock: what a store does, minus the store. */
final class Meter {
  static final long SECOND = 1_000_000;

  final Algorithm algorithm;
  final Quota quota;
  long first;
  long second;
  long now;

  Meter(Algorithm algorithm, long limit, long windowMicros, long burst) {
    this.algorithm = algorithm;
    this.quota = Quota.of(limit, windowMicros, burst);
  }

  Meter(Algorithm algorithm, long limit, long windowMicros) {
    this(algorithm, limit, windowMicros, limit);
  }

  Verdict take(long cost) {
    Verdict verdict = new Verdict();
    algorithm.evaluate(first, second, now, quota, cost, verdict);
    if (verdict.allowed()) {
      first = verdict.nextFirst();
      second = verdict.nextSecond();
    }
    return verdict;
  }

  Verdict take() {
    return take(1);
  }

  /** Takes single permits until one is denied; returns how many were allowed. */
  int drain() {
    int allowed = 0;
    while (take().allowed()) {
      allowed++;
      if (allowed > quota.limit() * 3 + quota.burst()) {
        throw new AssertionError("never denied");
      }
    }
    return allowed;
  }

  Meter at(long micros) {
    now = micros;
    return this;
  }

  Meter advance(long micros) {
    now += micros;
    return this;
  }

  /** Waits as a client honouring Retry-After would: the whole seconds of the header. */
  Meter waitRetryAfter(Verdict denied) {
    return advance((denied.retryAfterMicros() + SECOND - 1) / SECOND * SECOND);
  }
}
