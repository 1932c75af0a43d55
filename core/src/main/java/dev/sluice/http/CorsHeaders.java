package dev.sluice.http;

import dev.sluice.core.Cors;
import dev.sluice.core.Responses;

/**
 * The CORS headers of a 429, for an origin the {@code cors} section allows: without them a browser
 * hides the response from the page, {@code Retry-After} included. Allowed requests get none: the
 * application's own CORS handling answers those.
 */
final class CorsHeaders {
  private static final String EXPOSED_X_RATELIMIT =
      String.join(
          ", ",
          RateLimitHeaders.RETRY_AFTER,
          RateLimitHeaders.LIMIT,
          RateLimitHeaders.REMAINING,
          RateLimitHeaders.RESET,
          RateLimitHeaders.RULE);
  private static final String EXPOSED_IETF =
      String.join(", ", RateLimitHeaders.RETRY_AFTER, IetfHeaders.RATE_LIMIT, IetfHeaders.POLICY);

  private CorsHeaders() {}

  static void write(Cors cors, Responses.Headers style, Exchange exchange) {
    String origin = cors.allowOrigin(exchange.header("Origin"));
    if (origin == null) {
      return;
    }
    exchange.setHeader("Access-Control-Allow-Origin", origin);
    if (!origin.equals(Cors.ANY_ORIGIN)) {
      exchange.setHeader("Vary", "Origin"); // the answer differs by origin: caches must key on it
    }
    if (cors.allowCredentials()) {
      exchange.setHeader("Access-Control-Allow-Credentials", "true");
    }
    exchange.setHeader(
        "Access-Control-Expose-Headers",
        style == Responses.Headers.IETF ? EXPOSED_IETF : EXPOSED_X_RATELIMIT);
  }
}
