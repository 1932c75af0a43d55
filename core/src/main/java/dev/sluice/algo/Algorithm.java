package dev.sluice.algo;

/**
 * The three ways Sluice counts. Each is a pure function of (state, now, quota, cost), the state
 * being two numbers whose meaning belongs to the algorithm ({@code 0, 0} is a fresh identity). It
 * never reads a clock and never writes anything but its verdict, so a store can check several rules
 * before committing any of them, or check on an optimistic read and only lock to commit; and the
 * Lua scripts can mirror the same arithmetic line for line.
 */
public enum Algorithm {
  FIXED_WINDOW {
    @Override
    public void evaluate(long first, long second, long now, Quota quota, long cost, Verdict out) {
      FixedWindow.evaluate(first, second, now, quota, cost, out);
    }

    @Override
    public long idleAtMicros(long first, long second, long windowMicros) {
      return FixedWindow.idleAt(first, windowMicros);
    }
  },
  SLIDING_WINDOW {
    @Override
    public void evaluate(long first, long second, long now, Quota quota, long cost, Verdict out) {
      SlidingWindow.evaluate(first, second, now, quota, cost, out);
    }

    @Override
    public long idleAtMicros(long first, long second, long windowMicros) {
      return SlidingWindow.idleAt(first, windowMicros);
    }
  },
  TOKEN_BUCKET {
    @Override
    public void evaluate(long first, long second, long now, Quota quota, long cost, Verdict out) {
      TokenBucket.evaluate(first, now, quota, cost, out);
    }

    @Override
    public long idleAtMicros(long first, long second, long windowMicros) {
      return first;
    }
  };

  /**
   * Decides whether {@code cost} permits may be taken from the state ({@code first}, {@code
   * second}) at {@code now} (microseconds). Fills {@code out}, including the state to store if
   * allowed.
   */
  public abstract void evaluate(
      long first, long second, long now, Quota quota, long cost, Verdict out);

  /**
   * The instant from which the state is indistinguishable from a fresh one, so a store may forget
   * it.
   */
  public abstract long idleAtMicros(long first, long second, long windowMicros);
}
