package dev.sluice.metrics;

import java.util.Collections;
import java.util.List;

/**
 * What one rule decided since it came into force (or since the limiter started counting it): read
 * at one moment, immutable. A request is counted by every rule that matched it: as allowed by each
 * when it was admitted, as denied by each rule that denied it; a rule that would have let through a
 * request another rule denied counts nothing, since nothing was taken from it.
 */
public final class RuleStats {
  private final String ruleId;
  private final long allowed;
  private final long denied;
  private final long shadowDenied;
  private final long decidedLocally;
  private final long deniedLocally;
  private final List<LimitedClient> topLimited;

  RuleStats(
      String ruleId,
      long allowed,
      long denied,
      long shadowDenied,
      long decidedLocally,
      long deniedLocally,
      List<LimitedClient> topLimited) {
    this.ruleId = ruleId;
    this.allowed = allowed;
    this.denied = denied;
    this.shadowDenied = shadowDenied;
    this.decidedLocally = decidedLocally;
    this.deniedLocally = deniedLocally;
    this.topLimited = Collections.unmodifiableList(topLimited);
  }

  public String ruleId() {
    return ruleId;
  }

  /** Requests admitted (a shadow rule's: those it would have admitted too). */
  public long allowed() {
    return allowed;
  }

  /** Requests this rule answered with a 429. Always 0 for a shadow rule. */
  public long denied() {
    return denied;
  }

  /** Requests this shadow rule would have denied. */
  public long shadowDenied() {
    return shadowDenied;
  }

  /**
   * Decisions of this fail_open rule made in this JVM on its share of the limit, Redis being
   * unreachable (already counted as allowed or denied too).
   */
  public long decidedLocally() {
    return decidedLocally;
  }

  /**
   * Denials of this fail_closed rule because Redis was unreachable (already counted as denied, or
   * shadow denied).
   */
  public long deniedLocally() {
    return deniedLocally;
  }

  /** The clients it denied most in the last one to two minutes, most first. */
  public List<LimitedClient> topLimited() {
    return topLimited;
  }
}
