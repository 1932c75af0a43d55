package dev.sluice.algo;

/**
 * A token bucket kept as one number: the theoretical arrival time (TAT) of GCRA, the instant at
 * which the bucket would be full again. It is the same bucket the design notes describe with {@code
 * tokens} and {@code last_refill}: {@code tokens = (tolerance − (TAT − now)) / emission}, so
 * fractional tokens and lazy refill come for free, the arithmetic stays in exact integers, and a
 * store keeps one value per key instead of two.
 *
 * <p>State: first = TAT in microseconds (0 for a full bucket); second is unused. The state is idle
 * (a full bucket) from the TAT on.
 */
final class TokenBucket {
  private TokenBucket() {}

  static void evaluate(long tat, long now, Quota quota, long cost, Verdict out) {
    long emission = quota.emissionMicros;
    long tolerance = quota.toleranceMicros;
    long start = Math.max(tat, now);
    long spent = start + cost * emission;
    boolean allowed = spent - now <= tolerance;
    long after = allowed ? spent : start;
    long remaining = (tolerance - (after - now)) / emission;
    out.set(allowed, remaining, after - now, spent - tolerance - now);
    out.next(after, 0);
  }
}
