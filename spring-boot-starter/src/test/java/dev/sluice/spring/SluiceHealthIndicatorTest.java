package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.metrics.Metrics;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * The indicator on the breakers a real Redis store reports: a store on a Redis Cluster of three
 * masters, killed one, then all.
 */
class SluiceHealthIndicatorTest {
  private static final long MINUTE = 60_000_000;
  private static final Quota QUOTA = Quota.of(1_000, MINUTE, 1_000);
  /** Identities enough that each master holds some of their keys: (2/3)^40 that one holds none. */
  private static final int IDENTITIES = 40;

  private static RedisClusterHandle cluster;
  private static RedisStore store;
  private static Counters counters;
  private static Metrics metrics;

  @BeforeAll
  static void start() {
    cluster = RedisClusterHandle.startLocal(3, 0);
    List<URI> seeds = cluster.seedUris().stream().map(URI::create).toList();
    store = RedisStore.open(RedisSettings.cluster(seeds, 200, 4), "health", 1, Clock.SYSTEM, 1_000);
    counters = store.counters("rule", Algorithm.FIXED_WINDOW, MINUTE);
    metrics = new Metrics(Clock.SYSTEM::micros);
    metrics.bindStore(store::status);
  }

  @AfterAll
  static void stop() {
    store.close();
    cluster.close();
  }

  private static Health health(boolean affectsOverall) {
    return new SluiceHealthIndicator(metrics, affectsOverall).health();
  }

  /** Takes a permit for every identity until the store's health is {@code redis} (20 s at most). */
  private static void decideUntil(String redis) {
    Predicate<Health> reached = health -> redis.equals(health.getDetails().get("redis"));
    long deadline = System.nanoTime() + 20_000_000_000L;
    for (int round = 0; round < 100 && System.nanoTime() < deadline; round++) {
      for (int i = 0; i < IDENTITIES; i++) {
        store.acquire(List.of(new Permit(counters, "client-" + i, QUOTA, 1, OnError.FAIL_OPEN)));
      }
      if (reached.test(health(true))) {
        return;
      }
    }
  }

  @Test
  void aMemoryStoreIsUp() {
    Health health = new SluiceHealthIndicator(new Metrics(Clock.SYSTEM::micros), true).health();
    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).containsEntry("store", "memory");
  }

  @Test
  void upThenDegradedWithAMasterDownThenDownOnlyWhenItMayAffectTheApplication() {
    decideUntil("up");
    for (boolean affectsOverall : new boolean[] {false, true}) {
      Health health = health(affectsOverall);
      assertThat(health.getStatus()).as(health.toString()).isEqualTo(Status.UP);
      assertThat(health.getDetails()).containsEntry("store", "redis").containsEntry("redis", "up");
      assertThat((Map<?, ?>) health.getDetails().get("breakers")).hasSize(3);
    }

    cluster.masters().get(0).kill();
    decideUntil("degraded");
    for (boolean affectsOverall : new boolean[] {false, true}) {
      Health health = health(affectsOverall);
      assertThat(health.getDetails()).as(health.toString()).containsEntry("redis", "degraded");
      assertThat(health.getStatus()).isEqualTo(SluiceHealthIndicator.DEGRADED);
    }

    cluster.masters().forEach(RedisProcess::kill);
    decideUntil("down");
    assertThat(health(false).getDetails()).containsEntry("redis", "down");
    assertThat(health(false).getStatus()).isEqualTo(SluiceHealthIndicator.DEGRADED);
    assertThat(health(true).getStatus()).isEqualTo(Status.DOWN);
    assertThat(health(true).getDetails()).containsEntry("fleetSize", 1);
  }
}
