package dev.sluice.otel;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.TestRequest;
import dev.sluice.http.Admin;
import dev.sluice.http.Enforcer;
import dev.sluice.http.FakeExchange;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The decision on the span current in the thread's context class loader's OpenTelemetry API (here
 * the test's own, with the SDK recording), called through method handles.
 */
class SpanAttributesTest {
  private static final String RULES =
      "rules:\n  - { id: hello, match: { path: /hello }, key: ip, limit: 1, window: 10s, "
          + "algorithm: fixed_window }\n";

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final ClassLoader testLoader = Thread.currentThread().getContextClassLoader();

  @AfterEach
  void restoreContextClassLoader() {
    Thread.currentThread().setContextClassLoader(testLoader);
  }

  private Enforcer enforcer() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 10, 0));
    limiter.apply(ConfigParser.parse("test.yaml", RULES).rules());
    return new Enforcer(limiter, Admin.NONE, new SpanAttributes());
  }

  private static Tracer tracer(Sampler sampler) {
    return SdkTracerProvider.builder()
        .setSampler(sampler)
        .addSpanProcessor(new NoOpProcessor())
        .build()
        .get("test");
  }

  /** The span {@code enforcer} decides one request under, as the server span would be. */
  private static Span decideUnder(Tracer tracer, Enforcer enforcer) throws Exception {
    Span span = tracer.spanBuilder("GET /hello").startSpan();
    try (Scope scope = span.makeCurrent()) {
      enforcer.admit(new FakeExchange(TestRequest.get("/hello")));
    } finally {
      span.end();
    }
    return span;
  }

  private static Object attribute(Span span, String key) {
    ReadableSpan read = (ReadableSpan) span;
    Object text = read.getAttribute(AttributeKey.stringKey(key));
    return text != null ? text : read.getAttribute(AttributeKey.longKey(key));
  }

  @Test
  void theCurrentSpanCarriesTheRuleTheOutcomeAndThePermitsLeft() throws Exception {
    Enforcer enforcer = enforcer();
    Tracer tracer = tracer(Sampler.alwaysOn());
    Span allowed = decideUnder(tracer, enforcer);
    Span denied = decideUnder(tracer, enforcer);
    assertThat(attribute(allowed, "sluice.rule")).isEqualTo("hello");
    assertThat(attribute(allowed, "sluice.outcome")).isEqualTo("allowed");
    assertThat(attribute(allowed, "sluice.remaining")).isEqualTo(0L);
    assertThat(attribute(denied, "sluice.rule")).isEqualTo("hello");
    assertThat(attribute(denied, "sluice.outcome")).isEqualTo("denied");
  }

  @Test
  void aRequestNoRuleAppliesToLeavesTheSpanAlone() throws Exception {
    Tracer tracer = tracer(Sampler.alwaysOn());
    Span span = tracer.spanBuilder("GET /other").startSpan();
    try (Scope scope = span.makeCurrent()) {
      assertThat(enforcer().admit(new FakeExchange(TestRequest.get("/other")))).isTrue();
    } finally {
      span.end();
    }
    assertThat(((ReadableSpan) span).getAttributes().isEmpty()).isTrue();
  }

  /** An application without the API: nothing to find, no failure, the request decided as ever. */
  @Test
  void aContextClassLoaderWithoutTheApiCostsNothing() throws Exception {
    Enforcer enforcer = enforcer();
    Tracer tracer = tracer(Sampler.alwaysOn());
    try (URLClassLoader bare = new URLClassLoader(new URL[0], null)) {
      Thread.currentThread().setContextClassLoader(bare);
      Span span = decideUnder(tracer, enforcer);
      assertThat(((ReadableSpan) span).getAttributes().isEmpty()).isTrue();
      FakeExchange second = new FakeExchange(TestRequest.get("/hello"));
      assertThat(enforcer.admit(second)).isFalse();
      assertThat(second.status).isEqualTo(429);
    }
    Thread.currentThread().setContextClassLoader(testLoader);
    Span again = decideUnder(tracer, enforcer);
    assertThat(attribute(again, "sluice.outcome"))
        .as("the next app, which has the API, is looked up on its own")
        .isEqualTo("denied");
  }

  /** Records nothing: the test reads the spans themselves. */
  private static final class NoOpProcessor implements SpanProcessor {
    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {}

    @Override
    public boolean isStartRequired() {
      return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {}

    @Override
    public boolean isEndRequired() {
      return false;
    }
  }
}
