package dev.sluice.core;

import dev.sluice.algo.Verdict;
import dev.sluice.store.Permit;

/**
 * The answer for one request, from its most restrictive rule: when denied, the denying rule that
 * asks for the longest wait; when allowed, the rule with the fewest permits left. Times are whole
 * seconds, rounded up, as the headers carry them.
 */
public final class Decision {
  /** No rule applies: allowed, and no rate-limit headers. */
  public static final Decision UNLIMITED = new Decision(true, null, 0, 0, 0, 0);

  private final boolean allowed;
  private final String ruleId;
  private final long limit;
  private final long remaining;
  private final long resetSeconds;
  private final long retryAfterSeconds;

  private Decision(
      boolean allowed,
      String ruleId,
      long limit,
      long remaining,
      long resetSeconds,
      long retryAfterSeconds) {
    this.allowed = allowed;
    this.ruleId = ruleId;
    this.limit = limit;
    this.remaining = remaining;
    this.resetSeconds = resetSeconds;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The decision {@code permit}'s verdict stands for; {@code allowed} overrides it for shadows. */
  static Decision of(Permit permit, boolean allowed) {
    Verdict v = permit.verdict();
    return new Decision(
        allowed,
        permit.counters().ruleId(),
        permit.quota().limit(),
        v.remaining(),
        seconds(v.resetMicros()),
        allowed ? 0 : Math.max(1, seconds(v.retryAfterMicros())));
  }

  private static long seconds(long micros) {
    return (micros + 999_999) / 1_000_000;
  }

  public boolean allowed() {
    return allowed;
  }

  /** The id of the deciding rule, or null when no rule applies. */
  public String ruleId() {
    return ruleId;
  }

  public long limit() {
    return limit;
  }

  public long remaining() {
    return remaining;
  }

  /** Seconds until the quota is fully restored. */
  public long resetSeconds() {
    return resetSeconds;
  }

  /** When denied, whole seconds to wait, at least 1; else 0. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  @Override
  public String toString() {
    return ruleId == null
        ? "unlimited"
        : (allowed ? "allowed by " : "denied by ")
            + ruleId
            + " limit="
            + limit
            + " remaining="
            + remaining
            + " reset="
            + resetSeconds
            + "s retryAfter="
            + retryAfterSeconds
            + "s";
  }
}
