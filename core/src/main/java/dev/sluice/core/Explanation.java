package dev.sluice.core;

import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the rules in force make of one request, rule by rule, and what the store would decide now
 * for each rule that counts it: the answer to an operator's "why was this limited?" ({@link
 * Limiter#explain}). Nothing was taken and nothing counted to make it. Immutable.
 */
public final class Explanation {
  private final String skipped;
  private final List<Entry> entries;

  private Explanation(String skipped, List<Entry> entries) {
    this.skipped = skipped;
    this.entries = Collections.unmodifiableList(entries);
  }

  static Explanation skipped(String why) {
    return new Explanation(why, Collections.<Entry>emptyList());
  }

  /**
   * The explanation of {@code match}: {@code byRule} holds each rule's permit, its verdict peeked,
   * or null (or is null itself) as {@link RequestMatch#permits} made them; {@code error} says why
   * the store could not answer for them, or is null.
   */
  static Explanation of(Rules rules, RequestMatch match, Permit[] byRule, String error) {
    List<Entry> entries = new ArrayList<>(rules.rules().size());
    for (int i = 0; i < rules.rules().size(); i++) {
      Rule rule = rules.rules().get(i);
      boolean matches = match.matches(rule);
      Permit permit = byRule == null ? null : byRule[i];
      entries.add(
          new Entry(
              rule,
              matches,
              matches ? match.tier(rule) : null,
              matches ? match.quota(rule) : rule.quota(),
              permit,
              permit == null ? null : error));
    }
    return new Explanation(null, entries);
  }

  /**
   * Why no rule applies to the request at all ({@code "no rules"}, {@code "CORS preflight"}, {@code
   * "excluded path"}), or null when each rule was looked at.
   */
  public String skipped() {
    return skipped;
  }

  /** One entry per rule, in the order of the file; none when {@link #skipped}. */
  public List<Entry> entries() {
    return entries;
  }

  /**
   * One rule and the request. The verdict ({@link #allowed} to {@link #retryAfterSeconds}) is what
   * the store would decide now for this rule alone, and is only meaningful when the rule {@link
   * #matches}, has an {@link #identity} and there is no {@link #error}; it is allowed or denied as
   * a lone request of the rule, even when another rule would deny the request as a whole.
   */
  public static final class Entry {
    private final String ruleId;
    private final boolean shadow;
    private final boolean matches;
    private final String identity;
    private final String tier;
    private final long limit;
    private final long windowMicros;
    private final long cost;
    private final boolean allowed;
    private final long remaining;
    private final long resetSeconds;
    private final long retryAfterSeconds;
    private final long waitMicros;
    private final boolean delays;
    private final String error;

    Entry(Rule rule, boolean matches, String tier, Quota quota, Permit permit, String error) {
      this.ruleId = rule.id();
      this.shadow = rule.shadow();
      this.matches = matches;
      this.identity = permit == null ? null : permit.identity();
      this.tier = tier;
      this.limit = quota.limit();
      this.windowMicros = quota.windowMicros();
      this.cost = rule.cost();
      Verdict v = permit == null ? new Verdict() : permit.verdict();
      this.allowed = v.allowed();
      this.remaining = v.remaining();
      this.retryAfterSeconds = Decision.retryAfterSeconds(v);
      this.resetSeconds = Decision.resetSeconds(v, retryAfterSeconds);
      this.waitMicros = quota.waitMicros(v);
      this.delays = quota.isDelayed();
      this.error = error;
    }

    /** True when the rule has a {@code delay}: a request over its rate would wait for its slot. */
    public boolean delays() {
      return delays;
    }

    /**
     * How long the request would wait for its slot, when allowed by a rule with a delay; else 0.
     */
    public long waitMicros() {
      return waitMicros;
    }

    public String ruleId() {
      return ruleId;
    }

    /** Whether the rule only counts and reports, never denies. */
    public boolean shadow() {
      return shadow;
    }

    /** Whether the rule's methods and paths match the request. */
    public boolean matches() {
      return matches;
    }

    /**
     * The identity the rule counts the request by, escaped as its keys hold it (it may hold an API
     * key or a header's value); null when the rule does not match, or the request lacks a part of
     * the rule's key (a header key without its header): then the rule does not count it.
     */
    public String identity() {
      return identity;
    }

    /** The tier whose quota of the rule applies to the request; null for the rule's default. */
    public String tier() {
      return tier;
    }

    /** Permits per window of the quota that applies (the default quota if the rule matches not). */
    public long limit() {
      return limit;
    }

    public long windowMicros() {
      return windowMicros;
    }

    /** Permits the request takes. */
    public long cost() {
      return cost;
    }

    public boolean allowed() {
      return allowed;
    }

    /** Permits of cost one left once the request would be allowed; as many as left when denied. */
    public long remaining() {
      return remaining;
    }

    /** Whole seconds, rounded up as the headers carry them, until the quota is whole again. */
    public long resetSeconds() {
      return resetSeconds;
    }

    /** When denied, whole seconds to wait, at least 1, as the headers carry them; else 0. */
    public long retryAfterSeconds() {
      return retryAfterSeconds;
    }

    /** Why the store could not answer for the rule (then the verdict means nothing), or null. */
    public String error() {
      return error;
    }

    @Override
    public String toString() {
      return ruleId
          + (shadow ? " (shadow)" : "")
          + (!matches
              ? " does not match"
              : identity == null
                  ? " matches, no identity"
                  : " " + identity + (tier == null ? "" : " tier " + tier) + ": " + verdict());
    }

    private String verdict() {
      if (error != null) {
        return error;
      }
      return (allowed ? "allowed" : "denied, retry after " + retryAfterSeconds + "s")
          + ", remaining "
          + remaining
          + " of "
          + limit
          + ", reset "
          + resetSeconds
          + "s";
    }
  }
}
