package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fleet.size: auto. Every store beats into Redis each second and counts the stores heard from in
 * the last five; the count is what each one's local share divides by, and it is remembered through
 * an outage, exactly when it is needed.
 */
class FleetSizeIT {
  private static RedisProcess redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.localProcess();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  private static RedisStore store() {
    return RedisStore.open(
        RedisSettings.standalone(URI.create(redis.uri()), 200, 4), "fleet", 0, Clock.SYSTEM, 1_000);
  }

  /** Polls (bounded) until {@code size} reads {@code expected}; returns the seconds it took. */
  private static double secondsUntil(IntSupplier size, int expected, long limitMillis)
      throws InterruptedException {
    long start = System.nanoTime();
    while (size.getAsInt() != expected) {
      assertThat((System.nanoTime() - start) / 1_000_000)
          .as("waiting for a fleet of " + expected)
          .isLessThan(limitMillis);
      Thread.sleep(50);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  @Test
  void storesCountEachOtherAndRememberTheCountThroughAnOutage() throws Exception {
    try (RedisStore a = store()) {
      try (RedisStore b = store()) {
        secondsUntil(a::fleetSize, 2, 3_000);
        secondsUntil(b::fleetSize, 2, 3_000);
      }
      double left = secondsUntil(a::fleetSize, 1, 8_000);
      System.out.printf("a store that left was forgotten after %.1f s%n", left);
      try (RedisStore c = store()) {
        secondsUntil(a::fleetSize, 2, 3_000);
        redis.kill();
        Thread.sleep(2_500);
        assertThat(a.fleetSize()).as("remembered while Redis is down").isEqualTo(2);
        assertThat(c.fleetSize()).isEqualTo(2);
      } finally {
        redis.restart();
      }
    }
  }
}
