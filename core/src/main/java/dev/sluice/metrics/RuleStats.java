package dev.sluice.metrics;

import java.util.List;
import java.util.function.Supplier;

/**
 * What one rule decided since it came into force (or since the limiter started counting it): its
 * counts read at one moment, immutable. A request is counted by every rule that matched it: as
 * allowed by each when it was admitted, as denied by each rule that denied it; a rule that would
 * have let through a request another rule denied counts nothing, since nothing was taken from it.
 *
 * <p>Its top limited clients are worked out when first asked for: a reader of the counts alone (the
 * status history, every second) pays nothing for them.
 */
public final class RuleStats {
  private final String ruleId;
  private final long allowed;
  private final long denied;
  private final long shadowDenied;
  private final long decidedLocally;
  private final long deniedLocally;
  private final long delayed;
  private final long delayMicros;
  private final long waiting;
  private Supplier<List<LimitedClient>> top;
  private List<LimitedClient> topLimited;

  RuleStats(
      String ruleId,
      long allowed,
      long denied,
      long shadowDenied,
      long decidedLocally,
      long deniedLocally,
      long delayed,
      long delayMicros,
      long waiting,
      Supplier<List<LimitedClient>> top) {
    this.ruleId = ruleId;
    this.allowed = allowed;
    this.denied = denied;
    this.shadowDenied = shadowDenied;
    this.decidedLocally = decidedLocally;
    this.deniedLocally = deniedLocally;
    this.delayed = delayed;
    this.delayMicros = delayMicros;
    this.waiting = waiting;
    this.top = top;
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

  /**
   * Requests this rule's {@code delay} held until their slot (already counted as allowed). A
   * request that found no place to wait is counted as denied instead.
   */
  public long delayed() {
    return delayed;
  }

  /** Requests waiting for their slot now, in this JVM. */
  public long waiting() {
    return waiting;
  }

  /** The time the {@link #delayed} requests waited, together, in microseconds. */
  public long delayMicros() {
    return delayMicros;
  }

  /**
   * The clients it denied most in the last one to two minutes, most first, as worked out at most a
   * second before the first call.
   */
  public synchronized List<LimitedClient> topLimited() {
    if (topLimited == null) {
      topLimited = top.get();
      top = null;
    }
    return topLimited;
  }
}
