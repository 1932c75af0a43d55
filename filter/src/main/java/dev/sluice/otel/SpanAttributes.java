package dev.sluice.otel;

import dev.sluice.core.Decision;
import dev.sluice.http.DecisionListener;
import dev.sluice.http.Outcome;
import io.opentelemetry.api.trace.Span;

/**
 * Puts a decision on the current span, so that a trace shows why a request got its 429: {@code
 * sluice.rule} (the rule the outcome is about), {@code sluice.outcome} (allowed, delayed,
 * shadow_denied, denied) and {@code sluice.remaining} (the deciding rule's permits left). The
 * current span is the server span of the request where the OpenTelemetry agent traces the server;
 * where nothing does, it is the API's no-op span and this costs a thread-local read.
 */
final class SpanAttributes implements DecisionListener {
  static final String RULE = "sluice.rule";
  static final String OUTCOME = "sluice.outcome";
  static final String REMAINING = "sluice.remaining";

  @Override
  public void decided(Decision decision) {
    Span span = Span.current();
    if (!span.isRecording()) {
      return; // not sampled, or no tracing at all: nothing would read them
    }
    Outcome outcome = Outcome.of(decision);
    span.setAttribute(RULE, Outcome.ruleId(decision, outcome));
    span.setAttribute(OUTCOME, outcome.tag());
    span.setAttribute(REMAINING, decision.remaining());
  }

  @Override
  public String toString() {
    return "OpenTelemetry span attributes";
  }
}
