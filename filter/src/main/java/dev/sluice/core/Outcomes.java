package dev.sluice.core;

import dev.sluice.algo.Verdict;
import dev.sluice.metrics.RuleCounters;
import dev.sluice.store.Counters;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import java.util.List;

/** Counts a decided request into the metrics of every rule that took part in it. */
final class Outcomes {
  private Outcomes() {}

  /**
   * @param counted each rule's metrics, index for index with {@code counters}, its store counters
   * @param enforced the permits of the enforcing rules that applied, in rule order
   * @param shadowed the permits of the shadow rules that applied, in rule order
   * @param admitted whether the request was let through
   */
  static void count(
      RuleCounters[] counted,
      Counters[] counters,
      List<Permit> enforced,
      List<Permit> shadowed,
      boolean admitted) {
    count(counted, counters, enforced, false, admitted);
    count(counted, counters, shadowed, true, admitted);
  }

  /**
   * Finds each permit's rule by its counters: permits come in rule order, so one pass does, and the
   * request path allocates nothing to remember which rule each permit was for.
   */
  private static void count(
      RuleCounters[] counted,
      Counters[] counters,
      List<Permit> permits,
      boolean shadow,
      boolean admitted) {
    int rule = 0;
    for (int p = 0; p < permits.size(); p++) {
      Permit permit = permits.get(p);
      while (counters[rule] != permit.counters()) {
        rule++;
      }
      count(counted[rule], permit, shadow, admitted);
    }
  }

  private static void count(
      RuleCounters counters, Permit permit, boolean shadow, boolean admitted) {
    Verdict verdict = permit.verdict();
    if (shadow) {
      if (verdict.allowed()) {
        counters.countAllowed();
      } else {
        counters.countShadowDenied(permit.identity());
      }
    } else if (admitted) {
      counters.countAllowed();
    } else if (!verdict.allowed() && verdict.retryAfterMicros() > 0) {
      // A rule that would have allowed, or that the store left undecided after another denied
      // (no retry-after), took nothing: the denial is the other rule's.
      counters.countDenied(permit.identity());
    }
    if (permit.decidedLocally()) {
      if (permit.onError() == OnError.FAIL_CLOSED) {
        counters.countDeniedLocally();
      } else {
        counters.countDecidedLocally();
      }
    }
  }
}
