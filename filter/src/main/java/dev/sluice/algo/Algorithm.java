package dev.sluice.algo;

/**
 * The three ways Sluice counts. Each is a pure function of (state, now, quota, cost): it never reads
 * a clock and never writes the state itself, so the memory store can check several rules before
 * committing any of them, and the Lua scripts can mirror the same arithmetic line for line.
 */
public enum Algorithm {
  FIXED_WINDOW {
    @Override
    public void evaluate(State state, long now, Quota quota, long cost, Verdict out) {
      FixedWindow.evaluate(state, now, quota, cost, out);
    }

    @Override
    public long idleAtMicros(State state, long windowMicros) {
      return FixedWindow.idleAt(state, windowMicros);
    }
  },
  SLIDING_WINDOW {
    @Override
    public void evaluate(State state, long now, Quota quota, long cost, Verdict out) {
      SlidingWindow.evaluate(state, now, quota, cost, out);
    }

    @Override
    public long idleAtMicros(State state, long windowMicros) {
      return SlidingWindow.idleAt(state, windowMicros);
    }
  },
  TOKEN_BUCKET {
    @Override
    public void evaluate(State state, long now, Quota quota, long cost, Verdict out) {
      TokenBucket.evaluate(state, now, quota, cost, out);
    }

    @Override
    public long idleAtMicros(State state, long windowMicros) {
      return TokenBucket.idleAt(state);
    }
  };

  /**
   * Decides whether {@code cost} permits may be taken from {@code state} at {@code now}
   * (microseconds). Fills {@code out}, including the state to commit if allowed; {@code state} is
   * left untouched.
   */
  public abstract void evaluate(State state, long now, Quota quota, long cost, Verdict out);

  /**
   * The instant from which {@code state} is indistinguishable from a fresh one, so a store may
   * forget it.
   */
  public abstract long idleAtMicros(State state, long windowMicros);
}
