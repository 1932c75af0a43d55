package dev.sluice.algo;

/**
 * The two numbers an algorithm keeps per identity and rule. What they mean belongs to the
 * algorithm; a store only keeps them and writes back what a {@link Verdict} tells it to. A fresh
 * state (both zero) means "never seen", which every algorithm reads as an untouched quota.
 */
public class State {
  long first;
  long second;

  /** Stores the state an allowing verdict computed. */
  public final void commit(Verdict verdict) {
    first = verdict.nextFirst;
    second = verdict.nextSecond;
  }

  public final long first() {
    return first;
  }

  public final long second() {
    return second;
  }
}
