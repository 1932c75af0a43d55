package dev.sluice.algo;

/**
 * A count per window aligned to the epoch. State: first = window index, second = count. Cheap and
 * exact, but lets through up to twice the limit across a window boundary; that is why the sliding
 * window is the default.
 */
final class FixedWindow {
  private FixedWindow() {}

  static void evaluate(long first, long second, long now, Quota quota, long cost, Verdict out) {
    long window = quota.windowMicros;
    // A clock that steps back stays in the stored window rather than forgetting its count.
    long index = Math.max(Math.floorDiv(now, window), first);
    long count = first == index ? second : 0;
    boolean allowed = count + cost <= quota.limit;
    long after = allowed ? count + cost : count;
    long untilNextWindow = (index + 1) * window - now;
    out.set(allowed, quota.limit - after, after > 0 ? untilNextWindow : 0, untilNextWindow);
    out.next(index, after);
  }

  static long idleAt(long first, long windowMicros) {
    return (first + 1) * windowMicros;
  }
}
