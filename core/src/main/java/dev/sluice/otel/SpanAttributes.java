package dev.sluice.otel;

import dev.sluice.core.Decision;
import dev.sluice.http.DecisionListener;
import dev.sluice.http.Outcome;
import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Puts each decision on the request's current OpenTelemetry span, so that a trace shows why a
 * request got its 429: {@code sluice.rule} (the rule the outcome is about), {@code sluice.outcome}
 * (allowed, delayed, shadow_denied, denied) and {@code sluice.remaining} (the deciding rule's
 * permits left).
 *
 * <p>The span is the application's: its own opentelemetry-api, which the OpenTelemetry Java agent
 * bridges to the agent's spans (the server span of the request, there), found through the thread's
 * context class loader, which a container sets to the web app's while it serves it. Sluice links to
 * no OpenTelemetry class (method handles, {@link SpanApi}), so the Filter and the agent use this
 * alike, whatever API version the application has or none: where it has none, this costs a field
 * read (a locked map read when requests of several applications alternate).
 *
 * <p>Not the agent's own API: the OpenTelemetry agent keeps it relocated on the boot class path
 * under names that are no contract (docs/agent.md).
 */
public final class SpanAttributes implements DecisionListener {
  static final String SPAN = "io.opentelemetry.api.trace.Span";
  static final String RULE = "sluice.rule";
  static final String OUTCOME = "sluice.outcome";
  static final String REMAINING = "sluice.remaining";

  private static final Reference<Class<?>> NO_API = new WeakReference<Class<?>>(null);

  /**
   * Per class loader, its Span class, or NO_API. Weak both ways: a web app's loader and classes go
   * when it is undeployed; the Span class holds its {@link SpanApi}.
   */
  private final Map<ClassLoader, Reference<Class<?>>> spanClasses =
      new WeakHashMap<ClassLoader, Reference<Class<?>>>();

  /** The last loader looked up and what it sees: most servers serve one app, read without a lock. */
  private volatile Seen last = new Seen(null, NO_API);

  @Override
  public void decided(Decision decision) {
    Class<?> spanClass = spanClass(Thread.currentThread().getContextClassLoader());
    if (spanClass == null) {
      return;
    }
    try {
      SpanApi api = SpanApi.of(spanClass);
      Object span = api.recordingSpan();
      if (span == null) {
        return; // not sampled, or nothing traces: nothing would read them
      }
      Outcome outcome = Outcome.of(decision);
      api.set(span, RULE, Outcome.ruleId(decision, outcome));
      api.set(span, OUTCOME, outcome.tag());
      api.set(span, REMAINING, decision.remaining());
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t); // none is declared by the methods called
    }
  }

  /** The Span class {@code loader} sees, or null when it sees none. */
  private Class<?> spanClass(ClassLoader loader) {
    if (loader == null) {
      return null;
    }
    Seen seen = last;
    if (seen.loader.get() != loader) {
      Reference<Class<?>> known;
      synchronized (spanClasses) {
        known = spanClasses.get(loader);
        if (known == null) {
          known = find(loader);
          spanClasses.put(loader, known);
        }
      }
      seen = new Seen(loader, known);
      last = seen;
    }
    return seen.spanClass.get();
  }

  private static Reference<Class<?>> find(ClassLoader loader) {
    try {
      return new WeakReference<Class<?>>(Class.forName(SPAN, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return NO_API;
    }
  }

  /** A class loader, weakly, and the Span class it sees. */
  private static final class Seen {
    final Reference<ClassLoader> loader;
    final Reference<Class<?>> spanClass;

    Seen(ClassLoader loader, Reference<Class<?>> spanClass) {
      this.loader = new WeakReference<ClassLoader>(loader);
      this.spanClass = spanClass;
    }
  }

  @Override
  public String toString() {
    return "OpenTelemetry span attributes";
  }
}
