package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * fleet.size: auto. Every store beats into Redis each second and counts the stores heard from in
 * the last five; the count is what each one's local share divides by, and it is remembered through
 * an outage, exactly when it is needed.
 */
class FleetSizeIT extends WithOwnRedisProcess {
  /** A bucket that earns no token while a test runs: what is admitted is the share exactly. */
  private static final long HOUR = 3_600_000_000L;

  private static RedisStore store() {
    return store("fleet", 1);
  }

  private static RedisStore store(String prefix, int min) {
    return RedisStore.open(
        RedisSettings.standalone(URI.create(redis.uri()), 200, 4),
        prefix,
        0,
        min,
        Clock.SYSTEM,
        1_000);
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

  /**
   * fleet.min: a store that starts while Redis is down cannot count the fleet, so it takes the
   * share of the fewest JVMs declared rather than the whole limit; once it counts, the count rules
   * above the minimum and the minimum below it.
   */
  @Test
  void aStoreTakesTheFleetForItsMinimumBeforeItCountsAndAfter() throws Exception {
    redis.kill();
    try (RedisStore booted = store("fleet-min-outage", 3)) {
      Counters rule = booted.counters("api", Algorithm.TOKEN_BUCKET, HOUR);
      Quota ninety = Quota.of(90, HOUR, 90);
      int admitted = HandoverIT.admitted(booted, rule, ninety, "ip=10.0.0.1", 90);
      assertThat(booted.fleetSize()).isEqualTo(3);
      assertThat(admitted).as("a third of 90, not all of it").isEqualTo(30);
    } finally {
      redis.restart();
    }
    try (RedisStore counted = store("fleet-min", 1);
        RedisStore floored = store("fleet-min", 3)) {
      secondsUntil(counted::fleetSize, 2, 3_000);
      assertThat(floored.fleetSize()).as("two counted, three at least").isEqualTo(3);
      try (RedisStore c = store("fleet-min", 1);
          RedisStore d = store("fleet-min", 1)) {
        secondsUntil(floored::fleetSize, 4, 3_000);
      }
    }
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
