package dev.sluice.core;

/**
 * How Sluice's responses look to clients: the {@code response} section of ratelimit.yaml. Read with
 * the rules and swapped with them, so one request never mixes two files' styles. Immutable.
 */
public final class Responses {
  /** Which rate-limit headers every limited response carries. */
  public enum Headers {
    /** {@code X-RateLimit-Limit}, {@code -Remaining}, {@code -Reset}: what most clients read. */
    X_RATELIMIT,
    /**
     * {@code RateLimit-Policy} and {@code RateLimit} of draft-ietf-httpapi-ratelimit-headers-10.
     */
    IETF
  }

  /** How {@code X-RateLimit-Reset} tells when the quota is fully restored. */
  public enum Reset {
    /** Seconds from now. */
    SECONDS,
    /** Unix time in seconds, as GitHub's API sends it. */
    EPOCH_SECONDS
  }

  /** The body of a rejection whose rule gives none of its own. */
  public enum Body {
    /** {@code {"error":"rate_limited","rule":"login","retryAfterSeconds":12}}. */
    JSON,
    /** RFC 9457 {@code application/problem+json}. */
    PROBLEM_JSON
  }

  public static final Responses DEFAULT =
      new Responses(Headers.X_RATELIMIT, Reset.SECONDS, Body.JSON, false);

  private final Headers headers;
  private final Reset reset;
  private final Body body;
  private final boolean hideRuleIds;

  public Responses(Headers headers, Reset reset, Body body, boolean hideRuleIds) {
    this.headers = headers;
    this.reset = reset;
    this.body = body;
    this.hideRuleIds = hideRuleIds;
  }

  public Headers headers() {
    return headers;
  }

  public Reset reset() {
    return reset;
  }

  public Body body() {
    return body;
  }

  /** True when clients see each rule by its {@link RuleResponse#hiddenName()}, never its id. */
  public boolean hideRuleIds() {
    return hideRuleIds;
  }

  /** The name clients see for {@code rule}. */
  public String nameOf(Rule rule) {
    return hideRuleIds ? rule.response().hiddenName() : rule.id();
  }
}
