package dev.sluice.algo;

/**
 * The sliding-window counter of the design notes. It keeps the counts of the current and the
 * previous aligned window and estimates the rate over the trailing window as
 *
 * <pre>rate = prev × (1 − elapsed / window) + cur</pre>
 *
 * assuming the previous window's requests were spread evenly. A request is denied when {@code rate
 * >= limit}; a request of cost c must pass for each of its c units, so it is allowed when {@code
 * rate + c − 1 < limit}. A gap of more than one window zeroes the previous count.
 *
 * <p>The estimate never rises without new requests (it is continuous at the window boundary and
 * falls inside a window), so a client that waits the computed retry-after is allowed.
 *
 * <p>State: first = current window index, second = prev count (high 32 bits) and cur count (low 32
 * bits); counts never exceed the limit, which fits in 31 bits.
 */
final class SlidingWindow {
  private static final long LOW = 0xFFFF_FFFFL;

  private SlidingWindow() {}

  static void evaluate(long first, long second, long now, Quota quota, long cost, Verdict out) {
    long window = quota.windowMicros;
    // A clock that steps back (NTP, a failover to another Redis) stays in the stored window.
    long index = Math.max(Math.floorDiv(now, window), first);
    long elapsed = Math.max(0, now - index * window);
    long cur = 0;
    long prev = 0;
    if (first == index) {
      cur = second & LOW;
      prev = second >>> 32;
    } else if (first == index - 1) {
      prev = second & LOW;
    }
    boolean allowed = admits(prev, cur, elapsed, window, quota.limit, cost);
    long curAfter = allowed ? cur + cost : cur;
    long remaining = (long) Math.ceil(quota.limit - rate(prev, curAfter, elapsed, window));
    long reset = curAfter > 0 ? 2 * window - elapsed : prev > 0 ? window - elapsed : 0;
    long retry = allowed ? 0 : retryAfter(prev, cur, elapsed, window, quota.limit, cost);
    out.set(allowed, remaining, reset, retry);
    out.next(index, prev << 32 | curAfter);
  }

  static long idleAt(long first, long windowMicros) {
    return (first + 2) * windowMicros;
  }

  static double rate(long prev, long cur, long elapsed, long window) {
    return prev * (double) (window - elapsed) / window + cur;
  }

  private static boolean admits(
      long prev, long cur, long elapsed, long window, long limit, long c) {
    return rate(prev, cur, elapsed, window) + (c - 1) < limit;
  }

  /** The wait until a request of cost c is admitted, if nothing else arrives. */
  private static long retryAfter(
      long prev, long cur, long elapsed, long window, long limit, long c) {
    if (prev > 0 && cur + c - 1 < limit) {
      // Later in this window, once the previous window's weight has decayed enough.
      return firstAdmitting(prev, cur, elapsed, window, limit, c) - elapsed;
    }
    // In the next window, where this window's count becomes the previous one.
    return window - elapsed + firstAdmitting(cur, 0, 0, window, limit, c);
  }

  /**
   * The first microsecond in [from, window] at which the request is admitted. Solves the rate
   * equation, then steps to the exact answer of {@link #admits} (at most a step or two), so the
   * promise agrees with the check bit for bit. At {@code window} the previous weight is zero, which
   * callers guarantee admits.
   */
  private static long firstAdmitting(
      long prev, long cur, long from, long window, long limit, long c) {
    if (prev == 0 || admits(prev, cur, from, window, limit, c)) {
      return from;
    }
    double room = limit - cur - c + 1;
    long e = Math.max(from, Math.min(window, (long) Math.floor(window - room * window / prev)));
    while (e > from && admits(prev, cur, e - 1, window, limit, c)) {
      e--;
    }
    while (e < window && !admits(prev, cur, e, window, limit, c)) {
      e++;
    }
    return e;
  }
}
