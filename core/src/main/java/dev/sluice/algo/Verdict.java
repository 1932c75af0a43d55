package dev.sluice.algo;

/**
 * What one algorithm decided for one quota at one instant. Mutable so the request path can reuse
 * it; times are in microseconds.
 */
public final class Verdict {
  boolean allowed;
  long remaining;
  long resetMicros;
  long retryAfterMicros;
  long nextFirst;
  long nextSecond;

  /**
   * Records a verdict reached elsewhere: by a Redis script running the same algorithm, or by a
   * store that could not ask and applies its rule's {@code on_error}.
   */
  public void set(boolean allowed, long remaining, long resetMicros, long retryAfterMicros) {
    this.allowed = allowed;
    this.remaining = Math.max(0, remaining);
    this.resetMicros = Math.max(0, resetMicros);
    this.retryAfterMicros = allowed ? 0 : Math.max(1, retryAfterMicros);
  }

  /**
   * Records a take allowed earlier that left {@code first} as its state's first number (a bucket's
   * TAT): all a refund of it reads.
   */
  public void took(long first) {
    allowed = true;
    nextFirst = first;
  }

  void next(long first, long second) {
    nextFirst = first;
    nextSecond = second;
  }

  public boolean allowed() {
    return allowed;
  }

  /**
   * False until a store has filled this verdict. A store may stop at a request's first denial
   * without deciding its other rules: their verdicts stay as new, neither allowed nor with a wait.
   */
  public boolean decided() {
    return allowed || retryAfterMicros > 0;
  }

  /** Permits of cost one that would still be allowed right now. */
  public long remaining() {
    return remaining;
  }

  /** Time until the quota is fully restored, if nothing else arrives. */
  public long resetMicros() {
    return resetMicros;
  }

  /** The state to store when allowed: first number. */
  public long nextFirst() {
    return nextFirst;
  }

  /** The state to store when allowed: second number. */
  public long nextSecond() {
    return nextSecond;
  }

  /** When denied: the time until the same request would be allowed, if nothing else arrives. */
  public long retryAfterMicros() {
    return retryAfterMicros;
  }

  @Override
  public String toString() {
    return (allowed ? "allowed" : "denied")
        + " remaining="
        + remaining
        + " reset="
        + resetMicros
        + "µs retryAfter="
        + retryAfterMicros
        + "µs";
  }
}
