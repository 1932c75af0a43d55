package dev.sluice.core;

import dev.sluice.algo.Verdict;
import dev.sluice.metrics.RuleCounters;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import java.util.List;

/** Counts a decided request into the metrics of every rule that took part in it. */
final class Outcomes {
  private Outcomes() {}

  /**
   * @param byRule the permit of each rule that applied to the request, by rule index; null for the
   *     others
   * @param admitted whether the request was let through
   */
  static void count(RuleCounters[] counters, Permit[] byRule, List<Rule> rules, boolean admitted) {
    for (int i = 0; i < byRule.length; i++) {
      Permit permit = byRule[i];
      if (permit != null) {
        count(counters[i], permit, rules.get(i).shadow(), admitted);
      }
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
