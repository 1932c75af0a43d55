package dev.sluice.it.redis;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** Bounded polling: every wait in the harness ends, and a timeout says what was awaited and why. */
public final class Await {
  private static final long POLL_MILLIS = 50;

  private Await() {}

  /**
   * Calls {@code attempt} until it returns something other than null or false, and returns that. An
   * exception from an attempt means "not yet" and is remembered for the timeout message, except
   * {@link GiveUp}, which ends the wait at once. {@code diagnostics} runs only on timeout.
   */
  public static <T> T until(
      String what, Duration timeout, Callable<T> attempt, Supplier<String> diagnostics) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    while (true) {
      try {
        T result = attempt.call();
        if (result != null && !Boolean.FALSE.equals(result)) {
          return result;
        }
      } catch (GiveUp e) {
        throw e;
      } catch (Exception e) {
        last = e;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new IllegalStateException(
            "Timed out after "
                + timeout.toMillis()
                + " ms waiting for "
                + what
                + (last == null ? "" : "; last error: " + last)
                + "\n"
                + diagnostics.get(),
            last);
      }
      sleep(POLL_MILLIS);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting", e);
    }
  }

  /** Thrown by an attempt when waiting longer cannot help, e.g. the process has exited. */
  static final class GiveUp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    GiveUp(String message) {
      super(message);
    }
  }
}
