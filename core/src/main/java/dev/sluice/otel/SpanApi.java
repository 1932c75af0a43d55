package dev.sluice.otel;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The four methods of the OpenTelemetry API's {@code Span} that Sluice calls, as method handles on
 * one application's copy of the API: {@code Span.current()}, {@code isRecording()} and the two
 * {@code setAttribute}s. All four are in the API since 1.0 and stable. Cached on the {@code Span}
 * class itself, so they live and die with the application's class loader.
 */
final class SpanApi {
  private static final ClassValue<SpanApi> BY_SPAN_CLASS =
      new ClassValue<SpanApi>() {
        @Override
        protected SpanApi computeValue(Class<?> span) {
          try {
            return new SpanApi(span);
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("not the OpenTelemetry API's Span: " + span, e);
          }
        }
      };

  private final MethodHandle current;
  private final MethodHandle isRecording;
  private final MethodHandle setString;
  private final MethodHandle setLong;

  private SpanApi(Class<?> span) throws ReflectiveOperationException {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    current =
        lookup
            .findStatic(span, "current", MethodType.methodType(span))
            .asType(MethodType.methodType(Object.class));
    isRecording =
        lookup
            .findVirtual(span, "isRecording", MethodType.methodType(boolean.class))
            .asType(MethodType.methodType(boolean.class, Object.class));
    setString = setter(lookup, span, String.class);
    setLong = setter(lookup, span, long.class);
  }

  /** {@code setAttribute(String, value)}, its return (the span itself) dropped. */
  private static MethodHandle setter(MethodHandles.Lookup lookup, Class<?> span, Class<?> value)
      throws ReflectiveOperationException {
    return lookup
        .findVirtual(span, "setAttribute", MethodType.methodType(span, String.class, value))
        .asType(MethodType.methodType(void.class, Object.class, String.class, value));
  }

  static SpanApi of(Class<?> span) {
    return BY_SPAN_CLASS.get(span);
  }

  /** The current span if it records (is sampled, and something traces at all), else null. */
  Object recordingSpan() throws Throwable {
    Object span = (Object) current.invokeExact();
    return (boolean) isRecording.invokeExact(span) ? span : null;
  }

  void set(Object span, String key, String value) throws Throwable {
    setString.invokeExact(span, key, value);
  }

  void set(Object span, String key, long value) throws Throwable {
    setLong.invokeExact(span, key, value);
  }
}
