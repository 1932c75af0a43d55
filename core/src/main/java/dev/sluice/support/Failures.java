package dev.sluice.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs each kind of failure at most once in {@value #PERIOD_MINUTES} minutes: a fault that hits
 * every request must not write a stack trace per request into the application's log, and one that
 * goes on must not fall silent either; the next one logged says how many were suppressed since. A
 * kind is the exception's class and the way it came through Sluice's code (or a name the caller
 * gives), never its message: messages often carry request data, so junk requests would make each
 * one a kind of its own.
 */
public final class Failures {
  static final long PERIOD_MINUTES = 5;

  /** Kinds are sites in the code, so few; more than this, and the least recent are forgotten. */
  private static final int MAX_KINDS = 256;

  private static final long PERIOD_NANOS = TimeUnit.MINUTES.toNanos(PERIOD_MINUTES);
  private static final String OURS = "dev.sluice.";
  private static final String NOTE =
      " (each kind of failure is logged at most once in " + PERIOD_MINUTES + " minutes";

  private final Logger log;
  private final LongSupplier nanos;
  private final Map<String, Kind> kinds =
      new LinkedHashMap<String, Kind>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Kind> eldest) {
          return size() > MAX_KINDS;
        }
      };

  public Failures(Logger log) {
    this(log, System::nanoTime);
  }

  Failures(Logger log, LongSupplier nanos) {
    this.log = log;
    this.nanos = nanos;
  }

  /** Logs {@code what} with {@code failure}, unless its kind was logged less than a period ago. */
  public void log(String what, Throwable failure) {
    if (failure instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    String note = admit(kindOf(failure));
    if (note != null) {
      log.log(Level.SEVERE, what + note, failure);
    }
  }

  /** Logs {@code message} as a warning, unless {@code kind} was logged less than a period ago. */
  public void warn(String kind, String message) {
    String note = admit(kind);
    if (note != null) {
      log.warning(message + note);
    }
  }

  /**
   * The class of {@code failure} and the way it came through Sluice's own code: its frames of
   * {@code dev.sluice} classes (or, if none, its first frame). Where a JDK or container method
   * threw says less than which of ours called it, and the frames around Sluice (the container's,
   * the application's filters) would make one fault many kinds.
   */
  static String kindOf(Throwable failure) {
    StackTraceElement[] frames = failure.getStackTrace();
    StringBuilder kind = new StringBuilder(failure.getClass().getName());
    for (StackTraceElement frame : frames) {
      if (frame.getClassName().startsWith(OURS)) {
        kind.append(" at ").append(frame);
      }
    }
    if (kind.length() == failure.getClass().getName().length() && frames.length > 0) {
      kind.append(" at ").append(frames[0]);
    }
    return kind.toString();
  }

  /** The note to end the message with if {@code kind} may log now, else null. */
  private synchronized String admit(String kind) {
    long now = nanos.getAsLong();
    Kind seen = kinds.get(kind);
    if (seen == null) {
      kinds.put(kind, new Kind(now));
      return NOTE + ")";
    }
    if (now - seen.loggedAt < PERIOD_NANOS) {
      seen.suppressed++;
      return null;
    }
    long suppressed = seen.suppressed;
    seen.loggedAt = now;
    seen.suppressed = 0;
    return NOTE + (suppressed > 0 ? "; " + suppressed + " similar suppressed before this)" : ")");
  }

  private static final class Kind {
    long loggedAt;
    long suppressed;

    Kind(long loggedAt) {
      this.loggedAt = loggedAt;
    }
  }
}
