package dev.sluice.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * {@code Thread.onSpinWait()} (Java 9) for code compiled for Java 8: the hint that a thread is
 * spinning, which lets the core give its time to the other thread sharing it and saves power. The
 * method handle is looked up once and held in a constant, so the JIT compiles each call to the
 * hint's one instruction; on Java 8 there is none, and {@link #AVAILABLE} is false.
 */
final class SpinWait {
  private static final MethodHandle ON_SPIN_WAIT = lookUp();

  /** Whether this JVM has the hint; a spin without it only takes time from the lock's holder. */
  static final boolean AVAILABLE = ON_SPIN_WAIT != null;

  private SpinWait() {}

  /** One turn of a spin; call only when {@link #AVAILABLE}. */
  static void once() {
    try {
      ON_SPIN_WAIT.invokeExact();
    } catch (Throwable e) {
      throw new AssertionError("Thread.onSpinWait cannot throw", e);
    }
  }

  private static MethodHandle lookUp() {
    try {
      return MethodHandles.publicLookup()
          .findStatic(Thread.class, "onSpinWait", MethodType.methodType(void.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null; // Java 8
    }
  }
}
