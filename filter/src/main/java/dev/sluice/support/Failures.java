package dev.sluice.support;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs each kind of failure once: a fault that hits every request must not write a stack trace per
 * request into the application's log. A kind is the exception's class and message (or a name the
 * caller gives); at most 32 kinds are remembered, and beyond them nothing more is logged.
 */
public final class Failures {
  private static final int MAX_KINDS = 32;

  private final Logger log;
  private final Set<String> seen = Collections.synchronizedSet(new HashSet<String>());

  public Failures(Logger log) {
    this.log = log;
  }

  /** Logs {@code what} with {@code failure} unless a failure of its kind was logged already. */
  public void log(String what, Throwable failure) {
    if (failure instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    if (first(failure.getClass().getName() + ": " + failure.getMessage())) {
      log.log(Level.SEVERE, what + " (logged once per kind of failure)", failure);
    }
  }

  /** Logs {@code message} as a warning the first time {@code kind} happens. */
  public void warnOnce(String kind, String message) {
    if (first(kind)) {
      log.warning(message);
    }
  }

  private boolean first(String kind) {
    return seen.size() < MAX_KINDS && seen.add(kind);
  }
}
