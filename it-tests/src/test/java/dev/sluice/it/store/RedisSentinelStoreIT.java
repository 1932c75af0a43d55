package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisSentinelHandle;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import dev.sluice.store.StoreContract;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSentineled;

/**
 * The Redis store behind Sentinel (a master, a replica, three sentinels on loopback), started once
 * for the class: the store contract, limits shared by two stores through the master the sentinels
 * name, and the master killed under load. The failover runs last, since it changes the setup.
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class RedisSentinelStoreIT {
  private static final int TIMEOUT_MILLIS = 1_000;
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static RedisSentinelHandle setup;

  @BeforeAll
  static void startSentinels() {
    setup = RedisServers.sentinel();
  }

  @AfterAll
  static void stopSentinels() {
    if (setup != null) {
      setup.close();
    }
  }

  /** A fresh key prefix per store: tests share the master but never a key. */
  private static String prefix() {
    return "s" + PREFIXES.incrementAndGet();
  }

  /** As production connects, with a decision budget of 200 ms and a pool of 8. */
  private static RedisSettings settings() {
    List<URI> sentinels = setup.sentinelUris().stream().map(URI::create).toList();
    return RedisSettings.sentinel(setup.masterName(), sentinels, 200, 8);
  }

  /** Reads a key from the server the sentinels call master now. */
  private static String get(String key) {
    RedisProcess master = setup.master();
    return (String) RedisProbe.once(master.host(), master.port(), "GET", key);
  }

  @Nested
  @Order(1)
  class Contract extends StoreContract {
    private String prefix;

    /** RedisSettings connects only inside its package, so the client is built here, alike. */
    @Override
    protected Store open(Clock clock) {
      prefix = prefix();
      JedisClientConfig config =
          DefaultJedisClientConfig.builder()
              .connectionTimeoutMillis(TIMEOUT_MILLIS)
              .socketTimeoutMillis(TIMEOUT_MILLIS)
              .clientName("sluice-it")
              .build();
      Set<HostAndPort> sentinels = new LinkedHashSet<>();
      for (RedisProcess sentinel : setup.sentinels()) {
        sentinels.add(new HostAndPort(sentinel.host(), sentinel.port()));
      }
      return new RedisStore(
          new JedisSentineled(setup.masterName(), config, sentinels, config),
          "test sentinel",
          prefix,
          1,
          clock,
          10_000,
          RedisTime.following(clock),
          TIMEOUT_MILLIS);
    }

    @Override
    protected long keyCount() {
      return RedisKeys.countUnder(prefix, setup.master());
    }
  }

  @Nested
  @Order(2)
  class SharedLimits {
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void twoStoresShareOneLimitOnTheMaster(Algorithm algorithm) {
      String prefix = prefix();
      long window = RedisKeys.windowFarFromItsEdges();
      Quota six = Quota.of(6, window, 6);
      // A fleet of two: alone, each store would allow 3. Together through Redis they allow 6.
      try (RedisStore a = RedisStore.open(settings(), prefix, 2, Clock.SYSTEM, 1_000);
          RedisStore b = RedisStore.open(settings(), prefix, 2, Clock.SYSTEM, 1_000)) {
        Counters inA = a.counters("login", algorithm, window);
        Counters inB = b.counters("login", algorithm, window);
        for (int i = 0; i < 6; i++) {
          Verdict v = take(i % 2 == 0 ? a : b, i % 2 == 0 ? inA : inB, six);
          assertThat(v.allowed()).as("take %d", i + 1).isTrue();
          assertThat(v.remaining()).as("take %d", i + 1).isEqualTo(5 - i);
        }
        assertThat(take(a, inA, six).allowed()).as("A's 7th").isFalse();
        assertThat(take(b, inB, six).allowed()).as("B's 7th").isFalse();
      }
      assertThat(get(RedisKeys.key(prefix, "ip=10.0.0.1", "login", algorithm, window)))
          .as("state on the master")
          .isNotNull();
    }
  }

  @Nested
  @Order(3)
  class Failover {
    @Test
    void aKilledMasterIsReplacedAndDecisionsComeFromRedisAgainWithinSeconds() throws Exception {
      String prefix = prefix();
      try (RedisStore a =
              RedisStore.open(settings(), prefix, DecisionLoad.FLEET, Clock.SYSTEM, 10_000);
          RedisStore b =
              RedisStore.open(settings(), prefix, DecisionLoad.FLEET, Clock.SYSTEM, 10_000)) {
        FailoverDrill.run(
            "sentinel",
            a,
            b,
            prefix,
            "ip=203.0.113.9",
            null,
            new FailoverDrill.Failover() {
              private RedisProcess killed;

              @Override
              public void kill() {
                killed = setup.killMaster();
              }

              @Override
              public void awaitPromotion() {
                // Sentinels promote in 2-4 s; one starved of CPU for 2 s (a loaded machine) enters
                // TILT mode
                // and holds off for 30 s more.
                setup.awaitFailover(killed, RedisSentinelHandle.PROMOTION_TIMEOUT);
              }
            },
            RedisSentinelStoreIT::get);
      }
    }
  }

  private static Verdict take(Store store, Counters counters, Quota quota) {
    Permit permit = new Permit(counters, "ip=10.0.0.1", quota, 1);
    store.acquire(List.of(permit));
    return permit.verdict();
  }
}
