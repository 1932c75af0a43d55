package dev.sluice.agent.gate;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs each kind of failure once: a fault that hits every request must not write a stack trace
 * per request into the application's log. A kind is the exception's class and message.
 */
final class Failures {
  private static final Logger LOG = Logger.getLogger("dev.sluice.agent");
  private static final int MAX_KINDS = 32;

  private final Set<String> seen = Collections.synchronizedSet(new HashSet<String>());

  void log(Throwable t) {
    if (t instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    String kind = t.getClass().getName() + ": " + t.getMessage();
    if (seen.size() < MAX_KINDS && seen.add(kind)) {
      LOG.log(
          Level.SEVERE,
          "Sluice: a request was let through because the agent failed (logged once per kind of"
              + " failure)",
          t);
    }
  }
}
