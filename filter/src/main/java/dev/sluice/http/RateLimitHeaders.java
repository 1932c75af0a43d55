package dev.sluice.http;

import dev.sluice.core.Decision;

/** The headers every limited response carries, allowed or not. */
public final class RateLimitHeaders {
  public static final int TOO_MANY_REQUESTS = 429;
  public static final String LIMIT = "X-RateLimit-Limit";
  public static final String REMAINING = "X-RateLimit-Remaining";

  /** Seconds until the quota is fully restored. */
  public static final String RESET = "X-RateLimit-Reset";

  public static final String RETRY_AFTER = "Retry-After";

  private RateLimitHeaders() {}

  static void write(Decision decision, Exchange exchange) {
    exchange.setHeader(LIMIT, Long.toString(decision.limit()));
    exchange.setHeader(REMAINING, Long.toString(decision.remaining()));
    exchange.setHeader(RESET, Long.toString(decision.resetSeconds()));
    if (!decision.allowed()) {
      exchange.setHeader(RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
    }
  }
}
