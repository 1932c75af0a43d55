package dev.sluice.http;

import dev.sluice.core.Decision;
import dev.sluice.core.Rule;
import java.util.List;
import java.util.Locale;

/**
 * What a decision did to its request, in the words of the {@code outcome} tag of the {@code
 * sluice.decisions} meters, plus {@code delayed}. A denial wins over everything; a request that
 * waited for its slot is {@code delayed} even if a shadow rule would have denied it.
 */
public enum Outcome {
  ALLOWED,
  /** Allowed after waiting for its slot (a rule's {@code delay}). */
  DELAYED,
  /** Allowed, but a shadow rule would have denied it. */
  SHADOW_DENIED,
  DENIED;

  private final String tag = name().toLowerCase(Locale.ROOT);

  public static Outcome of(Decision decision) {
    if (!decision.allowed()) {
      return DENIED;
    }
    if (decision.delaying() >= 0) {
      return DELAYED;
    }
    return shadowDenying(decision) >= 0 ? SHADOW_DENIED : ALLOWED;
  }

  /**
   * The id of the rule the outcome is about: the deciding rule's, but for {@link #SHADOW_DENIED}
   * the shadow rule's that would have denied (the deciding one may be an enforcing rule with as
   * few permits left).
   */
  public static String ruleId(Decision decision, Outcome outcome) {
    if (outcome == SHADOW_DENIED) {
      return decision.rules().rules().get(shadowDenying(decision)).id();
    }
    return decision.ruleId();
  }

  /** The first shadow rule that would have denied {@code decision}'s request, or -1. */
  private static int shadowDenying(Decision decision) {
    List<Rule> rules = decision.rules().rules();
    for (int i = 0; i < rules.size(); i++) {
      if (rules.get(i).shadow()
          && decision.permit(i) != null
          && !decision.permit(i).verdict().allowed()) {
        return i;
      }
    }
    return -1;
  }

  /** The lower-case name, as tags and attributes carry it. */
  public String tag() {
    return tag;
  }
}
