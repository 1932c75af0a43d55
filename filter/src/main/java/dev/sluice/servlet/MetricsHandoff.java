package dev.sluice.servlet;

import dev.sluice.metrics.Metrics;
import jakarta.servlet.ServletContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Hands the metrics of an application's Sluice to whoever asks, through context attributes: a
 * ServletContextListener, which is where a plain application sets up its meter registry, runs before
 * any filter has started, so a request for the metrics waits, in the context, for the Filter's
 * {@code init}. The attributes hold JDK types and Sluice's own only.
 */
final class MetricsHandoff {
  /** Context attribute: the metrics of the started Filter's limiter. */
  static final String METRICS = "dev.sluice.metrics";

  /** Context attribute: the consumers waiting for them, a {@code List<Consumer<Metrics>>}. */
  private static final String WAITING = "dev.sluice.metrics.waiting";

  private MetricsHandoff() {}

  /** Hands {@code use} the context's metrics now if the Filter has started, else when it does. */
  static void whenStarted(ServletContext context, Consumer<Metrics> use) {
    Metrics metrics;
    synchronized (MetricsHandoff.class) {
      metrics = (Metrics) context.getAttribute(METRICS);
      if (metrics == null) {
        waiting(context).add(use);
        return;
      }
    }
    use.accept(metrics);
  }

  /** Publishes the started Filter's {@code metrics} and hands them to those waiting. */
  static void started(ServletContext context, Metrics metrics) {
    List<Consumer<Metrics>> waiting;
    synchronized (MetricsHandoff.class) {
      context.setAttribute(METRICS, metrics);
      waiting = waiting(context);
      context.removeAttribute(WAITING);
    }
    for (Consumer<Metrics> use : waiting) {
      try {
        use.accept(metrics);
      } catch (RuntimeException e) {
        // The application's code, run in the Filter's init: it must not stop the limits.
        Logger.getLogger("dev.sluice.servlet")
            .log(Level.SEVERE, "Sluice: the application's use of its metrics failed", e);
      }
    }
  }

  static void stopped(ServletContext context) {
    context.removeAttribute(METRICS);
  }

  @SuppressWarnings("unchecked")
  private static List<Consumer<Metrics>> waiting(ServletContext context) {
    List<Consumer<Metrics>> waiting = (List<Consumer<Metrics>>) context.getAttribute(WAITING);
    if (waiting == null) {
      waiting = new ArrayList<>();
      context.setAttribute(WAITING, waiting);
    }
    return waiting;
  }
}
