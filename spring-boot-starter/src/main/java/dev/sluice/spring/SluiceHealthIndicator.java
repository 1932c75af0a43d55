package dev.sluice.spring;

import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.StoreStatus;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * The health of the store Sluice counts in, by its Redis breakers: {@code up} when every shard
 * answers, {@code degraded} when some shards' keys are decided locally, {@code down} when every
 * shard's are. A store in this JVM is always up.
 *
 * <p>Sluice keeps deciding while Redis is away (locally, as each rule's on_error says), so by
 * default even {@code down} reports the status {@link #DEGRADED}, a code the application's overall
 * health leaves out: a rate limiter's Redis must not get the application restarted. With {@code
 * sluice.health.affects-overall} it reports {@link Status#DOWN}, which the overall health counts.
 */
final class SluiceHealthIndicator extends AbstractHealthIndicator {
  static final Status DEGRADED = new Status("DEGRADED", "Redis keys are decided in this JVM");

  private final Metrics metrics;
  private final boolean affectsOverall;

  SluiceHealthIndicator(Metrics metrics, boolean affectsOverall) {
    super("Sluice's store health check failed");
    this.metrics = metrics;
    this.affectsOverall = affectsOverall;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    StoreStatus store = metrics.store();
    builder.withDetail("store", store.type());
    if (!store.isShared()) {
      builder.up();
      return;
    }
    int open = store.openBreakers();
    int shards = store.breakers().size();
    builder.withDetail("breakers", store.breakers()).withDetail("fleetSize", store.fleetSize());
    if (open == 0) {
      builder.up().withDetail("redis", "up");
    } else if (open < shards) {
      builder.status(DEGRADED).withDetail("redis", "degraded");
    } else {
      builder.status(affectsOverall ? Status.DOWN : DEGRADED).withDetail("redis", "down");
    }
  }
}
