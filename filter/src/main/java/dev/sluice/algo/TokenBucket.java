package dev.sluice.algo;

/**
 * A token bucket kept as one number: the theoretical arrival time (TAT) of GCRA, the instant at
 * which the bucket would be full again. It is the same bucket the design notes describe with
 * {@code tokens} and {@code last_refill}: {@code tokens = (tolerance − (TAT − now)) / emission}, so
 * fractional tokens and lazy refill come for free, the arithmetic stays in exact integers, and a
 * store keeps one value per key instead of two.
 *
 * <p>State: first = TAT in microseconds (0 for a full bucket).
 */
final class TokenBucket {
  private TokenBucket() {}

  static void evaluate(State state, long now, Quota quota, long cost, Verdict out) {
    long emission = quota.emissionMicros;
    long tolerance = quota.toleranceMicros;
    long tat = Math.max(state.first, now);
    long spent = tat + cost * emission;
    boolean allowed = spent - now <= tolerance;
    long after = allowed ? spent : tat;
    long remaining = (tolerance - (after - now)) / emission;
    out.set(allowed, remaining, after - now, spent - tolerance - now);
    out.next(after, 0);
  }

  static long idleAt(State state) {
    return state.first;
  }
}
