package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisStore;
import dev.sluice.store.redis.ScriptTime;
import java.util.Collections;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/** What the scripts do to Redis itself: TTLs, key layout, NOSCRIPT recovery, memory per key. */
class LuaScriptsIT {
  private static final long MINUTE = 60_000_000;
  private static RedisServer redis;
  private static JedisPooled jedis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
    jedis = new JedisPooled(redis.host(), redis.port());
  }

  @AfterAll
  static void stopRedis() throws Exception {
    jedis.close();
    redis.close();
  }

  private static RedisStore store(String prefix, Clock clock, ScriptTime time) {
    return new RedisStore(
        new JedisPooled(redis.host(), redis.port()), "test", prefix, 1, clock, 1_000, time, 1_000);
  }

  private static boolean take(RedisStore store, Counters counters, String identity, long limit) {
    Permit permit = new Permit(counters, identity, Quota.of(limit, MINUTE, limit), 1);
    store.acquire(Collections.singletonList(permit));
    return permit.verdict().allowed();
  }

  @Test
  void everyKeyIsWrittenWithTheTtlOfItsIdleTime() {
    ManualClock clock = new ManualClock(1_800_000_000L * 1_000_000 + 15_000_000);
    try (RedisStore store = store("ttl", clock, RedisTime.following(clock))) {
      for (Algorithm algorithm : Algorithm.values()) {
        take(store, store.counters("r", algorithm, MINUTE), "ip=10.0.0.1", 10);
      }
    }
    Set<String> keys = jedis.keys("ttl:{*");
    assertThat(keys)
        .containsExactlyInAnyOrder(
            "ttl:{ip=10.0.0.1}:r:f60000",
            "ttl:{ip=10.0.0.1}:r:s60000",
            "ttl:{ip=10.0.0.1}:r:t60000");
    // A second after the state is idle. Fixed: the end of the minute (45 s away); sliding: two
    // windows from its start (105 s); bucket: when full again (one token of 10 a minute, 6 s).
    assertThat(jedis.pttl("ttl:{ip=10.0.0.1}:r:f60000")).isBetween(45_000L, 46_000L);
    assertThat(jedis.pttl("ttl:{ip=10.0.0.1}:r:s60000")).isBetween(105_000L, 106_000L);
    assertThat(jedis.pttl("ttl:{ip=10.0.0.1}:r:t60000")).isBetween(6_000L, 7_000L);
  }

  @Test
  void aServerThatForgotTheScriptsIsTaughtAgain() {
    try (RedisStore store = store("noscript", Clock.SYSTEM, ScriptTime.REDIS)) {
      Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, MINUTE);
      assertThat(take(store, counters, "ip=1", 2)).isTrue();
      jedis.scriptFlush();
      assertThat(take(store, counters, "ip=1", 2)).as("after SCRIPT FLUSH").isTrue();
      assertThat(take(store, counters, "ip=1", 2)).as("the count survived").isFalse();
    }
  }

  @Test
  void anIdleKeyCostsRedisLessThan120Bytes() {
    try (RedisStore store = store("mem", Clock.SYSTEM, ScriptTime.REDIS)) {
      Counters login = store.counters("login", Algorithm.TOKEN_BUCKET, MINUTE);
      Counters api = store.counters("api", Algorithm.SLIDING_WINDOW, MINUTE);
      take(store, login, "ip=203.0.113.7", 5);
      take(store, api, "ip=203.0.113.7", 1000);
    }
    long bucket = jedis.memoryUsage("mem:{ip=203.0.113.7}:login:t60000");
    long sliding = jedis.memoryUsage("mem:{ip=203.0.113.7}:api:s60000");
    assertThat(bucket).isLessThanOrEqualTo(120);
    assertThat(sliding).isLessThanOrEqualTo(120);
  }
}
