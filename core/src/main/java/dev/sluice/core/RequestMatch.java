package dev.sluice.core;

import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;

/**
 * One request read against the rules in force: whether any rule may apply at all, which rules match
 * it, and the identity, quota and permit of each. {@link Limiter#decide} and {@link
 * Limiter#explain} both read requests through this alone, so an explanation can never tell another
 * story than the decision.
 */
final class RequestMatch {
  static final String NO_RULES = "no rules";
  static final String CORS_PREFLIGHT = "CORS preflight";
  static final String EXCLUDED_PATH = "excluded path";

  private final Rules rules;
  private final RequestView request;
  private final String skipped;

  /** The path's segments; null when the request is skipped before its path is read. */
  private final String[] segments;

  /** The request's facts (address, API key, tier), worked out once a matching rule asks. */
  private Subject subject;

  RequestMatch(Rules rules, RequestView request) {
    this.rules = rules;
    this.request = request;
    if (rules.rules().isEmpty()) {
      skipped = NO_RULES;
      segments = null;
    } else if (rules.cors().skips(request)) {
      skipped = CORS_PREFLIGHT;
      segments = null;
    } else {
      segments = RequestPath.segments(request.path());
      skipped = rules.isExcluded(segments) ? EXCLUDED_PATH : null;
    }
  }

  /** Why no rule applies to the request at all, or null. */
  String skipped() {
    return skipped;
  }

  /** Whether {@code rule} matches the request's method and path; only when nothing is skipped. */
  boolean matches(Rule rule) {
    return rule.matches(request.method(), segments);
  }

  /** The identity {@code rule}'s key gives the request, or null if the request lacks a part. */
  String identity(Rule rule) {
    return rule.key().identityOf(subject());
  }

  /** The tier whose quota {@code rule} applies to the request, or null for its default quota. */
  String tier(Rule rule) {
    return rule.tierFor(subject());
  }

  Quota quota(Rule rule) {
    return rule.quotaFor(subject());
  }

  /**
   * The permit each rule would take for the request, index for index with the rules and {@code
   * counters}: null where a rule does not match or finds no identity; null instead of the array if
   * none would take one. Only when nothing is skipped.
   */
  Permit[] permits(Counters[] counters) {
    return permits(counters, Phase.ALL);
  }

  /** {@link #permits(Counters[])} of the rules decided in {@code phase} alone. */
  Permit[] permits(Counters[] counters, Phase phase) {
    Permit[] byRule = null;
    for (int i = 0; i < counters.length; i++) {
      Rule rule = rules.rules().get(i);
      String identity = phase.decides(rule) && matches(rule) ? identity(rule) : null;
      if (identity != null) {
        if (byRule == null) {
          byRule = new Permit[counters.length];
        }
        byRule[i] = new Permit(counters[i], identity, quota(rule), rule.cost(), rule.onError());
      }
    }
    return byRule;
  }

  private Subject subject() {
    if (subject == null) {
      subject = new Subject(request, rules);
    }
    return subject;
  }
}
