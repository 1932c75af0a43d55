package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.Await;
import dev.sluice.it.store.DelayMember.Reservations;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import dev.sluice.store.StoreContract;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.JedisCluster;

/**
 * The Redis store on a Redis Cluster of 3 masters and 3 replicas on loopback, started once for the
 * class: the store contract, exact limits with identities spread over every master, all-or-nothing
 * across masters, and a master killed under load. The failover runs last, since it changes the
 * cluster for good.
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class RedisClusterStoreIT {
  private static final long MINUTE = 60_000_000;
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static RedisClusterHandle cluster;

  @BeforeAll
  static void startCluster() {
    cluster = RedisServers.cluster(3, 1);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A fresh key prefix per store: tests share the cluster but never a key. */
  private static String prefix() {
    return "c" + PREFIXES.incrementAndGet();
  }

  @Nested
  @Order(1)
  class Contract extends StoreContract {
    private String prefix;

    @Override
    protected Store open(Clock clock) {
      prefix = prefix();
      return ClusterStores.manual(cluster, prefix, clock);
    }

    @Override
    protected long keyCount() {
      return RedisKeys.countUnder(prefix, cluster.masters().toArray(new RedisServer[0]));
    }
  }

  @Nested
  @Order(2)
  class AcrossMasters {
    private static final int PER_MASTER = 8;
    private static final int THREADS = 4;
    private static final int LIMIT = 25;

    private final ManualClock clock = new ManualClock(1_800_000_000L * 1_000_000);

    @ParameterizedTest
    @EnumSource(
        value = Algorithm.class,
        names = {"FIXED_WINDOW", "TOKEN_BUCKET"})
    void concurrentRequestsGetExactlyTheLimitOfEveryIdentityOnEveryMaster(Algorithm algorithm)
        throws Exception {
      Map<Integer, List<String>> byMaster =
          ClusterStores.identitiesByMaster(cluster, "ip=", PER_MASTER);
      assertThat(byMaster).as("masters holding identities").hasSize(3);
      List<String> identities = new ArrayList<>();
      byMaster.values().forEach(identities::addAll);
      String prefix = prefix();
      Quota quota = Quota.of(LIMIT, MINUTE, LIMIT);
      AtomicIntegerArray admitted = new AtomicIntegerArray(identities.size());
      try (RedisStore store = ClusterStores.manual(cluster, prefix, clock)) {
        Counters counters = store.counters("exact", algorithm, MINUTE);
        // Every thread asks twice the limit for every identity, interleaved with the others.
        runOnThreads(
            thread -> {
              for (int round = 0; round < 2 * LIMIT; round++) {
                for (int i = 0; i < identities.size(); i++) {
                  int which = (i + thread * 7) % identities.size();
                  if (take(store, counters, identities.get(which), quota)) {
                    admitted.incrementAndGet(which);
                  }
                }
              }
            });
      }
      try (JedisCluster reader = ClusterStores.readClient(cluster)) {
        for (int i = 0; i < identities.size(); i++) {
          String identity = identities.get(i);
          assertThat(admitted.get(i)).as("admitted for %s", identity).isEqualTo(LIMIT);
          String key = RedisKeys.key(prefix, identity, "exact", algorithm, MINUTE);
          // What Redis holds is exactly what was admitted: no decision was made locally.
          assertThat(reader.get(key)).as(key).isEqualTo(fullState(algorithm, quota));
        }
      }
      for (Map.Entry<Integer, List<String>> placed : byMaster.entrySet()) {
        for (String identity : placed.getValue()) {
          String key = RedisKeys.key(prefix, identity, "exact", algorithm, MINUTE);
          assertThat(cluster.masterForKey(key).port()).as(key).isEqualTo(placed.getKey());
        }
      }
    }

    /**
     * Jedis reads a pipeline that spans several masters with worker threads; unless given its own
     * executor, it starts a thread pool for every such pipeline. Under load (more callers than the
     * store's turn, so calls of every master share pipelines) that would be threads by the hundred
     * a second; the store's readers are reused instead.
     */
    @Test
    void pipelinesSpanningMastersStartNoThreadsOfTheirOwn() throws Exception {
      List<String> identities = new ArrayList<>();
      ClusterStores.identitiesByMaster(cluster, "ip=", PER_MASTER)
          .values()
          .forEach(identities::addAll);
      String prefix = prefix();
      Quota quota = Quota.of(1_000_000, MINUTE, 1_000_000);
      int callers = 32;
      int each = 150;
      AtomicInteger admitted = new AtomicInteger();
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long started;
      try (RedisStore store = ClusterStores.manual(cluster, prefix, clock)) {
        Counters counters = store.counters("spread", Algorithm.FIXED_WINDOW, MINUTE);
        take(store, counters, identities.get(0), quota); // connected, scripts loaded
        long before = threads.getTotalStartedThreadCount();
        runOnThreads(
            callers,
            thread -> {
              for (int i = 0; i < each; i++) {
                if (take(
                    store, counters, identities.get((i + thread) % identities.size()), quota)) {
                  admitted.incrementAndGet();
                }
              }
            });
        started = threads.getTotalStartedThreadCount() - before - callers;
      }
      System.out.printf(
          "Cluster pipelines: %d decisions from %d callers started %d threads%n",
          callers * each, callers, started);
      assertThat(admitted.get()).isEqualTo(callers * each);
      long counted = 0;
      try (JedisCluster reader = ClusterStores.readClient(cluster)) {
        for (String identity : identities) {
          String state =
              reader.get(RedisKeys.key(prefix, identity, "spread", Algorithm.FIXED_WINDOW, MINUTE));
          counted += RedisKeys.count(state);
        }
      }
      assertThat(counted)
          .as("decisions counted in Redis, none locally")
          .isEqualTo(callers * each + 1);
      assertThat(started).as("threads started beyond the callers").isLessThan(64);
    }

    @Test
    void aRequestDeniedOnOneMasterTakesNothingOnAnother() {
      String prefix = prefix();
      String global = "global";
      int globalPort = cluster.masterForSlot(ClusterStores.slotOf(global)).port();
      String ip = ClusterStores.identityNotOn(cluster, "ip=192.0.2.", globalPort);
      Quota perIpQuota = Quota.of(10, MINUTE, 10);
      Quota globalQuota = Quota.of(3, MINUTE, 3);
      try (RedisStore store = ClusterStores.manual(cluster, prefix, clock);
          JedisCluster reader = ClusterStores.readClient(cluster)) {
        Counters perIp = store.counters("ip", Algorithm.FIXED_WINDOW, MINUTE);
        Counters all = store.counters("global", Algorithm.TOKEN_BUCKET, MINUTE);
        for (int i = 0; i < 3; i++) {
          assertThat(take(store, all, global, globalQuota)).isTrue();
        }
        String ipKey = RedisKeys.key(prefix, ip, "ip", Algorithm.FIXED_WINDOW, MINUTE);
        for (int i = 0; i < 5; i++) {
          // Forget remembered denials, as a reload does, so each request reaches both masters:
          // the per-IP take on one, the global denial on the other, then the refund.
          store.retainOnly(List.of(perIp, all));
          List<Permit> both =
              List.of(
                  new Permit(perIp, ip, perIpQuota, 1), new Permit(all, global, globalQuota, 1));
          store.acquire(both);
          assertThat(both.get(1).verdict().allowed()).as("global, request %d", i).isFalse();
          // Written (so the per-IP rule was taken on its master) and given back: the refund is
          // sent after the request is decided, not waited for.
          String refunded = RedisKeys.fixedState(clock.micros() / MINUTE, 0);
          Await.until(
              "the per-IP take refunded, request " + i,
              Duration.ofSeconds(5),
              () -> refunded.equals(reader.get(ipKey)),
              () -> "per-IP state " + reader.get(ipKey));
        }
        assertThat(cluster.masterForKey(ipKey).port()).isNotEqualTo(globalPort);
        for (int i = 10; i > 0; i--) {
          Permit alone = new Permit(perIp, ip, perIpQuota, 1);
          store.acquire(List.of(alone));
          assertThat(alone.verdict().remaining()).as("per-IP quota untouched").isEqualTo(i - 1);
        }
      }
    }

    /**
     * A shadow rule's permit of another identity, on another master, goes in the pipeline of the
     * enforced call: one round trip a request, and each counted in Redis as if alone.
     */
    @Test
    void aPermitTakenAloneOnAnotherMasterSharesTheRoundTrip() {
      String prefix = prefix();
      String global = "global";
      int globalPort = cluster.masterForSlot(ClusterStores.slotOf(global)).port();
      String ip = ClusterStores.identityNotOn(cluster, "ip=203.0.113.", globalPort);
      Quota perIpQuota = Quota.of(10, MINUTE, 10);
      Quota trialQuota = Quota.of(100, MINUTE, 100);
      try (RedisStore store = ClusterStores.manual(cluster, prefix, clock);
          JedisCluster reader = ClusterStores.readClient(cluster)) {
        Counters perIp = store.counters("ip", Algorithm.FIXED_WINDOW, MINUTE);
        Counters trial = store.counters("trial", Algorithm.FIXED_WINDOW, MINUTE);
        // Each master learns the script (NOSCRIPT, then by text) before round trips are counted.
        take(store, perIp, ip, perIpQuota);
        take(store, trial, global, trialQuota);
        long roundTrips = store.status().allRoundTrips().count();
        for (int i = 0; i < 4; i++) {
          Permit enforced = new Permit(perIp, ip, perIpQuota, 1);
          Permit alone = new Permit(trial, global, trialQuota, 1);
          store.acquire(List.of(enforced), List.of(alone));
          assertThat(enforced.verdict().remaining()).as("request %d", i).isEqualTo(8 - i);
          assertThat(alone.verdict().remaining()).as("request %d", i).isEqualTo(98 - i);
          assertThat(enforced.decidedLocally() || alone.decidedLocally()).isFalse();
        }
        assertThat(store.status().allRoundTrips().count() - roundTrips).isEqualTo(4);
        String trialKey = RedisKeys.key(prefix, global, "trial", Algorithm.FIXED_WINDOW, MINUTE);
        String ipKey = RedisKeys.key(prefix, ip, "ip", Algorithm.FIXED_WINDOW, MINUTE);
        assertThat(cluster.masterForKey(trialKey).port()).isEqualTo(globalPort);
        assertThat(cluster.masterForKey(ipKey).port()).isNotEqualTo(globalPort);
        assertThat(RedisKeys.count(reader.get(trialKey))).isEqualTo(5);
        assertThat(RedisKeys.count(reader.get(ipKey))).isEqualTo(5);
      }
    }

    @Test
    void concurrentRequestsWithTwoIdentitiesOnTwoMastersAreAllOrNothing() throws Exception {
      String prefix = prefix();
      String global = "global";
      int globalPort = cluster.masterForSlot(ClusterStores.slotOf(global)).port();
      List<String> ips = new ArrayList<>();
      for (Map.Entry<Integer, List<String>> e :
          ClusterStores.identitiesByMaster(cluster, "ip=198.51.100.", 3).entrySet()) {
        if (e.getKey() != globalPort) {
          ips.addAll(e.getValue());
        }
      }
      assertThat(ips).hasSize(6);
      // Six IPs may take 8 each (48), the global rule only 30: it is the global that denies.
      Quota perIpQuota = Quota.of(8, MINUTE, 8);
      Quota globalQuota = Quota.of(30, MINUTE, 30);
      AtomicIntegerArray admitted = new AtomicIntegerArray(ips.size());
      try (RedisStore store = ClusterStores.manual(cluster, prefix, clock)) {
        Counters perIp = store.counters("ip", Algorithm.FIXED_WINDOW, MINUTE);
        Counters all = store.counters("global", Algorithm.FIXED_WINDOW, MINUTE);
        runOnThreads(
            thread -> {
              for (int round = 0; round < 15; round++) {
                for (int i = 0; i < ips.size(); i++) {
                  int which = (i + thread) % ips.size();
                  List<Permit> both =
                      List.of(
                          new Permit(perIp, ips.get(which), perIpQuota, 1),
                          new Permit(all, global, globalQuota, 1));
                  store.acquire(both);
                  if (both.get(0).verdict().allowed() && both.get(1).verdict().allowed()) {
                    admitted.incrementAndGet(which);
                  }
                }
              }
            });
      }
      try (JedisCluster reader = ClusterStores.readClient(cluster)) {
        int total = 0;
        for (int i = 0; i < ips.size(); i++) {
          total += admitted.get(i);
          String key = RedisKeys.key(prefix, ips.get(i), "ip", Algorithm.FIXED_WINDOW, MINUTE);
          assertThat(RedisKeys.count(reader.get(key)))
              .as("%s: counted in Redis = admitted (denials refunded)", ips.get(i))
              .isEqualTo(admitted.get(i));
        }
        assertThat(total).as("admitted in all").isEqualTo(30);
        String globalKey = RedisKeys.key(prefix, global, "global", Algorithm.FIXED_WINDOW, MINUTE);
        assertThat(RedisKeys.count(reader.get(globalKey))).isEqualTo(30);
      }
    }

    private void runOnThreads(OnThreads.Body body) throws Exception {
      runOnThreads(THREADS, body);
    }

    private void runOnThreads(int threads, OnThreads.Body body) throws Exception {
      OnThreads.run(threads, body);
    }

    /** What Redis holds once the limit is taken at the (frozen) test time. */
    private String fullState(Algorithm algorithm, Quota quota) {
      long now = clock.micros();
      return algorithm == Algorithm.FIXED_WINDOW
          ? RedisKeys.fixedState(now / MINUTE, LIMIT)
          : Long.toString(now + LIMIT * quota.emissionMicros());
    }
  }

  @Nested
  @Order(3)
  class Delay {
    /**
     * A delayed rule's burst on the cluster, as {@code DelayedFleetIT} sends it to a standalone
     * Redis: 20 requests at 5/s with max_wait 2s from two stores taking turns, on the scripts' clock
     * held still, so the answer is exact. The script reserves each slot where the identity's keys
     * live: one slot every 200 ms from now to 2 s, none shared, the rest denied.
     */
    @Test
    void twoStoresSpaceABurstAtTheRateAndNeverShareASlot() {
      ManualClock clock = new ManualClock(1_800_000_000_000_000L);
      String prefix = prefix();
      try (RedisStore one = ClusterStores.manual(cluster, prefix, clock);
          RedisStore two = ClusterStores.manual(cluster, prefix, clock)) {
        Reservations got = DelayMember.reserve(List.of(one, two), 20);
        List<Long> waits = new ArrayList<>();
        List<Long> slotsFromNow = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
          waits.add(i * 200_000L);
        }
        for (long slot : got.slots) {
          slotsFromNow.add(slot - got.slots.get(0));
        }
        assertThat(got.waits).as("each request's wait, in arrival order").isEqualTo(waits);
        assertThat(slotsFromNow).as("the slots, from the first").isEqualTo(waits);
        assertThat(got.denied).as("beyond max_wait").isEqualTo(9);
      }
    }
  }

  @Nested
  @Order(4)
  class Failover {
    @Test
    void aKilledMasterIsReplacedAndDecisionsComeFromRedisAgainWithinSeconds() throws Exception {
      String prefix = prefix();
      RedisProcess victim = cluster.masters().get(0);
      String busy =
          ClusterStores.identitiesByMaster(cluster, "ip=203.0.113.", 1).get(victim.port()).get(0);
      String bystander = ClusterStores.identityNotOn(cluster, "ip=203.0.114.", victim.port());
      int slot = ClusterStores.slotOf(busy);
      RedisSettings settings = RedisSettings.cluster(ClusterStores.seedUris(cluster), 200, 8);
      try (RedisStore a =
              RedisStore.open(settings, prefix, DecisionLoad.FLEET, Clock.SYSTEM, 10_000);
          RedisStore b =
              RedisStore.open(settings, prefix, DecisionLoad.FLEET, Clock.SYSTEM, 10_000)) {
        FailoverDrill.run(
            "cluster",
            a,
            b,
            prefix,
            busy,
            bystander,
            new FailoverDrill.Failover() {
              private RedisProcess killed;

              @Override
              public void kill() {
                killed = cluster.killMaster(slot);
                assertThat(killed).isSameAs(victim);
              }

              @Override
              public void awaitPromotion() {
                cluster.awaitFailover(killed, Duration.ofSeconds(20));
              }
            },
            key -> {
              try (JedisCluster reader = ClusterStores.readClient(cluster)) {
                return reader.get(key);
              }
            });
      }
    }
  }

  private static boolean take(Store store, Counters counters, String identity, Quota quota) {
    Permit permit = new Permit(counters, identity, quota, 1);
    store.acquire(List.of(permit));
    return permit.verdict().allowed();
  }
}
