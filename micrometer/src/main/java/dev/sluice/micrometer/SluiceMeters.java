package dev.sluice.micrometer;

import dev.sluice.metrics.ConfigStatus;
import dev.sluice.metrics.Metrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;

/**
 * A limiter's {@link Metrics} as Micrometer meters, named by Micrometer's conventions ({@code
 * sluice.decisions} with the tags {@code rule} and {@code outcome}, …; docs/spring-boot.md lists
 * them), so that they reach whatever backend the application exports to. The Spring Boot starter
 * binds it; an application with the web.xml Filter binds it in one line, in a ServletContextListener
 * for instance (the Filter hands its metrics over once it has started):
 *
 * <pre>{@code
 * RateLimitFilter.withMetrics(context, metrics -> new SluiceMeters(metrics).bindTo(registry));
 * }</pre>
 *
 * <p>The rules' meters follow the rules in force; the store's read whichever store is in force. The
 * top limited clients are left to the status endpoint: as a tag, a client would make a meter per
 * client.
 */
public final class SluiceMeters implements MeterBinder {
  private final Metrics metrics;

  public SluiceMeters(Metrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    store(registry);
    config(registry);
    RuleMeters rules = new RuleMeters(metrics, registry);
    metrics.onRulesChanged(rules::follow);
    rules.follow();
  }

  private void store(MeterRegistry registry) {
    FunctionTimer.builder(
            "sluice.redis.round.trips",
            metrics,
            m -> m.store().allRoundTrips().count(),
            m -> m.store().allRoundTrips().sumSeconds(),
            TimeUnit.SECONDS)
        .description("Redis round trips (one pipeline each), since the store started")
        .register(registry);
    for (double q : new double[] {0.5, 0.99}) {
      Gauge.builder(
              "sluice.redis.round.trips.recent",
              metrics,
              m -> m.store().recentRoundTrips().quantileSeconds(q))
          .tag("quantile", String.valueOf(q))
          .baseUnit("seconds")
          .description("Quantiles of the Redis round trips of the last minute")
          .register(registry);
    }
    FunctionCounter.builder("sluice.redis.commands", metrics, m -> m.store().commands())
        .description("Commands sent to Redis; divided by the round trips, the mean pipeline size")
        .register(registry);
    FunctionCounter.builder("sluice.redis.errors", metrics, m -> m.store().errors())
        .description("Redis round trips a server did not answer, and failed connects")
        .register(registry);
    Gauge.builder("sluice.redis.breakers.open", metrics, m -> m.store().openBreakers())
        .description("Shards whose breaker is open or probing: their keys are decided in this JVM")
        .register(registry);
    Gauge.builder("sluice.redis.fleet.size", metrics, m -> m.store().fleetSize())
        .description("The JVMs this one believes share the limits")
        .register(registry);
    Gauge.builder("sluice.store.shared", metrics, m -> m.store().isShared() ? 1 : 0)
        .description("1 while the counts live in Redis, 0 while in this JVM")
        .register(registry);
  }

  private void config(MeterRegistry registry) {
    Gauge.builder("sluice.config.rules", metrics, m -> m.config().rules())
        .description("Rules in force (none while enabled: false)")
        .register(registry);
    Gauge.builder("sluice.config.reload.successful", metrics, SluiceMeters::reloadSuccessful)
        .description(
            "0 while ratelimit.yaml is invalid, unreadable or missing: the last good rules stay")
        .register(registry);
  }

  private static double reloadSuccessful(Metrics metrics) {
    return metrics.config().lastReload() == ConfigStatus.Reload.REJECTED ? 0 : 1;
  }
}
