package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import dev.sluice.store.redis.RedisStore;
import java.util.Collections;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.JedisPooled;

/**
 * One algorithm truth: the Lua scripts and the Java algorithms give the same verdict, to the
 * microsecond, for the same random history of requests and pauses (window boundaries, idle gaps,
 * fractional refills, costs above one, exhausted quotas).
 */
class AlgorithmsAgreeIT {
  private static final int STEPS = 400;
  private static RedisServer redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() throws Exception {
    redis.close();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void luaAndJavaAgreeOnEveryVerdict(Algorithm algorithm) {
    Random random = new Random(algorithm.ordinal() * 7919L + 17);
    ManualClock clock = new ManualClock(1_800_000_000L * 1_000_000 + random.nextInt(1_000_000));
    try (Store memory = new MemoryStore(clock, 1_000, 0);
        Store lua =
            new RedisStore(
                new JedisPooled(redis.host(), redis.port()),
                "test",
                "agree-" + algorithm,
                1,
                clock,
                1_000,
                RedisTime.following(clock),
                1_000)) {
      for (int trial = 0; trial < 5; trial++) {
        long limit = 1 + random.nextInt(20);
        long window = new long[] {1_000, 500_000, 1_000_000, 60_000_000}[random.nextInt(4)];
        Quota quota = Quota.of(limit, window, 1 + random.nextInt((int) limit * 2));
        String rule = "r" + trial;
        Counters inMemory = memory.counters(rule, algorithm, window);
        Counters inRedis = lua.counters(rule, algorithm, window);
        for (int step = 0; step < STEPS; step++) {
          clock.advance(pause(random, window));
          long cost = 1 + random.nextInt((int) Math.min(3, Math.min(limit, quota.burst())));
          Verdict expected = take(memory, inMemory, quota, cost);
          // Forget remembered denials (as a reload does), so every verdict comes from the script.
          lua.retainOnly(Collections.singletonList(inRedis));
          Verdict actual = take(lua, inRedis, quota, cost);
          assertThat(outcome(actual))
              .as("%s trial %d step %d", algorithm, trial, step)
              .isEqualTo(outcome(expected));
        }
      }
    }
  }

  /** Mostly short pauses, sometimes none, sometimes exactly a window or an idle gap. */
  private static long pause(Random random, long window) {
    switch (random.nextInt(6)) {
      case 0:
        return 0;
      case 1:
        return window;
      case 2:
        return 2 * window + random.nextInt(3);
      default:
        return (long) (random.nextDouble() * window / 4);
    }
  }

  /** What a verdict tells the client; the state to commit is each store's own business. */
  private static String outcome(Verdict v) {
    return (v.allowed() ? "allowed" : "denied")
        + " remaining="
        + v.remaining()
        + " reset="
        + v.resetMicros()
        + " retry="
        + v.retryAfterMicros();
  }

  private static Verdict take(Store store, Counters counters, Quota quota, long cost) {
    Permit permit = new Permit(counters, "ip=10.0.0.1", quota, cost);
    store.acquire(Collections.singletonList(permit));
    return permit.verdict();
  }
}
