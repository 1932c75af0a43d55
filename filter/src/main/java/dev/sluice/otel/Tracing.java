package dev.sluice.otel;

import dev.sluice.http.DecisionListener;

/**
 * Finds out whether Sluice's decisions can go onto the request's OpenTelemetry span: they can when
 * the OpenTelemetry API is visible to the class loader Sluice was loaded by (an application with
 * opentelemetry-api in WEB-INF/lib, which the OpenTelemetry Java agent bridges to its own spans).
 * Nothing of the API is loaded unless it is there: {@link SpanAttributes}, the one class that uses
 * it, is loaded only then.
 */
public final class Tracing {
  static final String SPAN = "io.opentelemetry.api.trace.Span";

  private Tracing() {}

  /** The listener for {@code loader}: {@link SpanAttributes} if it sees the API, else none. */
  public static DecisionListener listener(ClassLoader loader) {
    try {
      Class.forName(SPAN, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return DecisionListener.NONE;
    }
    return new SpanAttributes();
  }
}
