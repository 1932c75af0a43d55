package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.WithStandaloneRedis;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisStore;
import dev.sluice.store.redis.ScriptTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.JedisPooled;

/** What the scripts do to Redis itself: TTLs, key layout, NOSCRIPT recovery, memory per key. */
class LuaScriptsIT extends WithStandaloneRedis {
  private static final long MINUTE = 60_000_000;

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
    String fixed = key("ttl", Algorithm.FIXED_WINDOW);
    String sliding = key("ttl", Algorithm.SLIDING_WINDOW);
    String bucket = key("ttl", Algorithm.TOKEN_BUCKET);
    assertThat(jedis.keys("ttl{*")).containsExactlyInAnyOrder(fixed, sliding, bucket);
    // A second after the state is idle. Fixed: the end of the minute (45 s away); sliding: two
    // windows from its start (105 s); bucket: when full again (one token of 10 a minute, 6 s).
    assertThat(jedis.pttl(fixed)).isBetween(45_000L, 46_000L);
    assertThat(jedis.pttl(sliding)).isBetween(105_000L, 106_000L);
    assertThat(jedis.pttl(bucket)).isBetween(6_000L, 7_000L);
  }

  @Test
  void everyStateIsOneIntegerThatRedisStoresAsSuch() {
    long now = 1_800_000_000L * 1_000_000 + 15_000_000;
    ManualClock clock = new ManualClock(now);
    try (RedisStore store = store("int", clock, RedisTime.following(clock))) {
      for (Algorithm algorithm : Algorithm.values()) {
        take(store, store.counters("r", algorithm, MINUTE), "ip=10.0.0.1", 10);
        assertThat(jedis.objectEncoding(key("int", algorithm)))
            .as("%s", algorithm)
            .isEqualTo("int");
      }
    }
    long index = now / MINUTE;
    assertThat(jedis.get(key("int", Algorithm.FIXED_WINDOW)))
        .isEqualTo(RedisKeys.fixedState(index, 1))
        .isEqualTo("100001"); // 1, index 30,000,000 modulo 10^4 in four digits, count 1
    assertThat(jedis.get(key("int", Algorithm.SLIDING_WINDOW)))
        .isEqualTo(RedisKeys.slidingState(index, 0, 1));
    assertThat(jedis.get(key("int", Algorithm.TOKEN_BUCKET)))
        .isEqualTo(Long.toString(now + 6_000_000));
  }

  /** Indexes are stored modulo 10^4: counts must carry across a window index of 10^4 · n. */
  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"FIXED_WINDOW", "SLIDING_WINDOW"})
  void windowsCountAlikeAcrossTheWrapOfTheStoredIndex(Algorithm algorithm) {
    long window = 1_000_000;
    // Half a second into window 1,800,009,999: the next one's index ends in 0000.
    ManualClock clock = new ManualClock(1_800_009_999L * window + window / 2);
    try (RedisStore store =
        store("wrap" + algorithm.ordinal(), clock, RedisTime.following(clock))) {
      Counters counters = store.counters("r", algorithm, window);
      Quota quota = Quota.of(4, window, 4);
      for (int i = 0; i < 4; i++) {
        assertThat(take(store, counters, "ip=1", quota)).as("take %d", i).isTrue();
      }
      assertThat(take(store, counters, "ip=1", quota)).as("the window is full").isFalse();
      clock.advance(window / 2); // window ...0000 begins
      store.retainOnly(List.of(counters)); // forget the local denial
      boolean first = take(store, counters, "ip=1", quota);
      if (algorithm == Algorithm.FIXED_WINDOW) {
        assertThat(first).as("a fresh window").isTrue();
      } else {
        // The previous window (index ...9999) still weighs fully at the start of the next.
        assertThat(first).as("previous window read back across the wrap").isFalse();
        clock.advance(window / 2);
        store.retainOnly(List.of(counters));
        int admitted = 0;
        for (int i = 0; i < 4; i++) {
          admitted += take(store, counters, "ip=1", quota) ? 1 : 0;
        }
        assertThat(admitted).as("half the previous window weighs: 4 · 1/2 = 2 left").isEqualTo(2);
      }
    }
  }

  /** A Redis clock that steps back into the stored window keeps its count, across the wrap too. */
  @Test
  void aClockSteppingBackAcrossTheWrapKeepsTheCount() {
    long window = 1_000_000;
    ManualClock clock = new ManualClock(1_800_010_000L * window + 1);
    try (RedisStore store = store("back", clock, RedisTime.following(clock))) {
      Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, window);
      Quota quota = Quota.of(2, window, 2);
      assertThat(take(store, counters, "ip=1", quota)).isTrue();
      assertThat(take(store, counters, "ip=1", quota)).isTrue();
      clock.advance(-2); // into window ...9999
      store.retainOnly(List.of(counters));
      assertThat(take(store, counters, "ip=1", quota)).as("stays in the stored window").isFalse();
    }
  }

  /** Counts too large for one 64-bit integer are kept as a string: exact, just bigger. */
  @Test
  void hugeCountsStayExact() {
    long now = 1_800_000_000L * 1_000_000;
    ManualClock clock = new ManualClock(now);
    long big = 5_000_000_000L;
    try (RedisStore store = store("huge", clock, RedisTime.following(clock))) {
      Counters counters = store.counters("r", Algorithm.SLIDING_WINDOW, MINUTE);
      Quota quota = Quota.of(3 * big, MINUTE, 3 * big);
      Permit permit = new Permit(counters, "ip=1", quota, big);
      store.acquire(List.of(permit));
      assertThat(permit.verdict().allowed()).isTrue();
      clock.advance(MINUTE);
      Permit next = new Permit(counters, "ip=1", quota, big + 1);
      store.acquire(List.of(next));
      assertThat(next.verdict().allowed()).isTrue();
      assertThat(jedis.get(RedisKeys.key("huge", "ip=1", "r", Algorithm.SLIDING_WINDOW, MINUTE)))
          .isEqualTo(RedisKeys.slidingState(now / MINUTE + 1, big, big + 1));
    }
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

  /**
   * Redis's own accounting (used_memory) over 100,002 keys of three rules, TTLs included: at most
   * 120 bytes a key. jemalloc's size classes make this a step function: a key name of 15 bytes or a
   * string value would cost 16 bytes more and fail.
   */
  @Test
  void aKeyCostsRedisAtMost120BytesWithItsTtl() throws InterruptedException {
    int clients = 33_334;
    long before;
    try (RedisStore store = store("rl", Clock.SYSTEM, ScriptTime.REDIS)) {
      Counters login = store.counters("login", Algorithm.FIXED_WINDOW, 15 * MINUTE);
      Counters api = store.counters("api", Algorithm.TOKEN_BUCKET, 24 * 60 * MINUTE);
      Counters perIp = store.counters("per-ip", Algorithm.SLIDING_WINDOW, MINUTE);
      // Every key outlives the measurement: a bucket's key lives until the bucket is full again.
      Quota logins = Quota.of(5, 15 * MINUTE, 5);
      Quota daily = Quota.of(1_000, 24 * 60 * MINUTE, 1_000);
      Quota perMinute = Quota.of(1_000, MINUTE, 1_000);
      take(store, login, "warm-up", 5); // loads the script before measuring
      jedis.del(RedisKeys.key("rl", "warm-up", "login", Algorithm.FIXED_WINDOW, 15 * MINUTE));
      before = usedMemory();
      ExecutorService pool = Executors.newFixedThreadPool(16);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
          int first = t;
          done.add(
              pool.submit(
                  () -> {
                    for (int i = first; i < clients; i += 16) {
                      String ip = "ip=203.0." + (i >>> 8) + "." + (i & 255);
                      store.acquire(
                          List.of(
                              new Permit(login, ip, logins, 1),
                              new Permit(api, ip, daily, 1),
                              new Permit(perIp, ip, perMinute, 1)));
                    }
                  }));
        }
        for (Future<?> f : done) {
          assertThat(f).succeedsWithin(Duration.ofSeconds(120));
        }
      } finally {
        pool.shutdownNow();
      }
    }
    assertThat(jedis.dbSize()).isGreaterThanOrEqualTo(3L * clients);
    long keys = jedis.keys("rl{*").size();
    assertThat(keys).isEqualTo(3L * clients);
    double perKey = (double) (settledUsedMemory() - before) / keys;
    System.out.printf("Redis memory per key, TTL included: %.1f B over %,d keys%n", perKey, keys);
    assertThat(perKey).isLessThanOrEqualTo(120);
  }

  private static String key(String prefix, Algorithm algorithm) {
    return RedisKeys.key(prefix, "ip=10.0.0.1", "r", algorithm, MINUTE);
  }

  private static boolean take(RedisStore store, Counters counters, String identity, Quota quota) {
    Permit permit = new Permit(counters, identity, quota, 1);
    store.acquire(Collections.singletonList(permit));
    return permit.verdict().allowed();
  }

  private static long usedMemory() {
    String info = jedis.info("memory");
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("used_memory:")) {
        return Long.parseLong(line.substring("used_memory:".length()).trim());
      }
    }
    throw new IllegalStateException("no used_memory in INFO memory");
  }

  /**
   * used_memory once two reads 300 ms apart agree (at most 6 s): serverCron finishes growing the
   * key tables in the background, and while it does both the old and the new table are allocated.
   */
  private static long settledUsedMemory() throws InterruptedException {
    long last = usedMemory();
    for (int i = 0; i < 20; i++) {
      Thread.sleep(300);
      long now = usedMemory();
      if (now == last) {
        return now;
      }
      last = now;
    }
    return last;
  }
}
