package dev.sluice.it;

import dev.sluice.micrometer.SluiceMeters;
import dev.sluice.servlet.RateLimitFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletContextEvent;

/**
 * A plain web app's own meter registry, set up where such apps set theirs up: in a listener, which
 * the container runs before it starts any filter. The one line binds Sluice's meters to it.
 */
public class RegistryListener implements ServletContextListener {
  /** The registry of the app deployed last; the test reads it in the same JVM. */
  static volatile SimpleMeterRegistry registry;

  @Override
  public void contextInitialized(ServletContextEvent event) {
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    RateLimitFilter.withMetrics(
        event.getServletContext(), metrics -> new SluiceMeters(metrics).bindTo(own));
    registry = own;
  }
}
