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
   * @param counted each rule's metrics, index for index with the rules {@code decision} holds
   */
  static void count(RuleCounters[] counted, Decision decision) {
    List<Rule> rules = decision.rules().rules();
    for (int i = 0; i < counted.length; i++) {
      Permit permit = decision.permit(i);
      if (permit != null) {
        count(counted[i], permit, rules.get(i).shadow(), decision, i);
      }
    }
  }

  /**
   * A rule that would have allowed a denied request took nothing, and one the store never decided
   * is not in the decision: a denial is counted only by the rules that denied.
   */
  private static void count(
      RuleCounters counters, Permit permit, boolean shadow, Decision decision, int rule) {
    Verdict verdict = permit.verdict();
    if (shadow) {
      if (verdict.allowed()) {
        counters.countAllowed();
      } else {
        counters.countShadowDenied(permit.identity());
      }
    } else if (decision.allowed()) {
      counters.countAllowed();
    } else if (decision.deniedBy(rule)) {
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
