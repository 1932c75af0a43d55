package dev.sluice.http;

import dev.sluice.core.Decision;
import dev.sluice.core.Rule;

/**
 * What a request decided at entry holds when its rules keyed by the user are decided after login
 * ({@link dev.sluice.core.Phase}): the entry's allowed decision, whose takes a denial after login
 * gives back, and the wait it spent, which counts against the one wait budget of the request. Kept
 * in a request attribute between the two phases.
 */
final class Held {
  /** The request attribute that carries it. */
  static final String ATTRIBUTE = "dev.sluice.held";

  /** Nothing held: a request decided in one phase, or its first. */
  static final Held NOTHING = new Held(null, 0, 0);

  /** The entry's decision, allowed; null for {@link #NOTHING}. */
  final Decision decision;

  final long waitedMicros;

  /** The longest wait the rule that held the request allows it, all its phases together. */
  final long budgetMicros;

  private Held(Decision decision, long waitedMicros, long budgetMicros) {
    this.decision = decision;
    this.waitedMicros = waitedMicros;
    this.budgetMicros = budgetMicros;
  }

  /** What {@code decision}, allowed at entry and served after its wait, holds. */
  static Held after(Decision decision) {
    int delaying = decision.delaying();
    if (delaying < 0) {
      return new Held(decision, 0, 0);
    }
    Rule rule = decision.rules().rules().get(delaying);
    return new Held(decision, decision.waitMicros(), rule.delay().maxWaitMicros());
  }

  /** What {@code exchange}'s entry phase left for its phase after login. */
  static Held of(Exchange exchange) {
    Object held = exchange.attribute(ATTRIBUTE);
    return held instanceof Held ? (Held) held : NOTHING;
  }

  /** The longest a rule allowing {@code maxWaitMicros} may still hold the request. */
  long budgetLeft(long maxWaitMicros) {
    return Math.max(budgetMicros, maxWaitMicros) - waitedMicros;
  }
}
