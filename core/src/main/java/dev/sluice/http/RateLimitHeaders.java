package dev.sluice.http;

import dev.sluice.core.Decision;
import dev.sluice.core.Responses;
import dev.sluice.store.Clock;

/**
 * The headers every limited response carries, allowed or not, in the style {@code response.headers}
 * names; and {@code Retry-After} on a rejection, in either style.
 */
public final class RateLimitHeaders {
  public static final String LIMIT = "X-RateLimit-Limit";
  public static final String REMAINING = "X-RateLimit-Remaining";

  /** When the deciding rule's quota is fully restored: never before {@link #RETRY_AFTER}. */
  public static final String RESET = "X-RateLimit-Reset";

  /**
   * Which rule the other three describe, when several counted the request: its id, or its stand-in
   * when ids are hidden.
   */
  public static final String RULE = "X-RateLimit-Rule";

  public static final String RETRY_AFTER = "Retry-After";

  /** How long a delayed request waited for its slot, in milliseconds, in either style. */
  public static final String DELAY = "X-RateLimit-Delay-Ms";

  /** The places left in the queue of the deciding rule's delay, in either style. */
  public static final String QUEUE = "X-RateLimit-Queue";

  private RateLimitHeaders() {}

  static void write(Decision decision, Exchange exchange, Clock clock) {
    Responses responses = decision.rules().responses();
    if (responses.headers() == Responses.Headers.IETF) {
      IetfHeaders.write(decision, exchange);
    } else {
      exchange.setHeader(LIMIT, decision.limitText());
      exchange.setHeader(REMAINING, Long.toString(decision.remaining()));
      long reset = decision.resetSeconds();
      if (responses.reset() == Responses.Reset.EPOCH_SECONDS) {
        // From the next whole second: a client that adds Retry-After to any instant of this one
        // (the Date header's, say) still lands no later than the reset.
        reset += Decision.seconds(clock.micros());
      }
      exchange.setHeader(RESET, Long.toString(reset));
      exchange.setHeader(RULE, responses.nameOf(decision.rule()));
    }
    long queue = decision.queueRemaining();
    if (queue >= 0) {
      exchange.setHeader(QUEUE, Long.toString(queue));
    }
    if (!decision.allowed()) {
      exchange.setHeader(RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
    } else {
      long waited = decision.waitMicros();
      if (waited > 0) {
        exchange.setHeader(DELAY, Long.toString((waited + 999) / 1_000)); // rounded up, as ever
      }
    }
  }
}
