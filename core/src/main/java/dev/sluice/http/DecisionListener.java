package dev.sluice.http;

import dev.sluice.core.Decision;

/**
 * Told of each decision the {@link Enforcer} makes that some rule applies to, once it is final (a
 * delayed request has waited), on the request's thread, before the response is written: for
 * tracing, such as the attributes of the request's OpenTelemetry span. The limiter's metrics count
 * the decisions already. What it throws is logged, and the request goes on as decided.
 */
public interface DecisionListener {
  DecisionListener NONE = decision -> {};

  void decided(Decision decision);
}
