package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.WithOwnCluster;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.params.MigrateParams;

/**
 * A slot moved from one master to another while a fail_closed rule decides for identities in it, as
 * {@code redis-cli --cluster reshard} moves one: IMPORTING on the new master, MIGRATING on the old,
 * the keys migrated one at a time, then the slot handed to the new master. Meanwhile the old master
 * answers ASK for keys already moved and, once it has handed the slot over, MOVED. Every decision
 * must still come from Redis: none made locally (fail_closed would deny), each admission counted
 * exactly once, no breaker opened. The cluster is this class's own: the slot stays moved.
 */
class ClusterReshardingIT extends WithOwnCluster {
  private static final int IDENTITIES = 4;

  /** More callers than the store's eight lanes, so queued calls for one key are merged too. */
  private static final int THREADS = 12;

  /** Never reached under the load: any denial is a local decision. */
  private static final long LIMIT = 1_000_000;

  private static final int MAX_PER_THREAD = 50_000;
  private static final long PAUSE_NANOS = 500_000;
  private static final long MAX_RUN_NANOS = TimeUnit.SECONDS.toNanos(60);

  /** Between two migrated keys: long enough for many decisions to find the slot split. */
  private static final long BETWEEN_KEYS_MILLIS = 150;

  /** After the handover: longer than the store's periodic refresh of the slot map (1 s). */
  private static final long AFTER_HANDOVER_MILLIS = 1_500;

  @Test
  void decisionsInASlotMovedUnderLoadAllComeFromRedisExactly() throws Exception {
    List<String> identities = identitiesInOneSlot();
    int slot = ClusterStores.slotOf(identities.get(0));
    RedisProcess from = cluster.masterForSlot(slot);
    RedisProcess to =
        cluster.masters().stream().filter(m -> m.port() != from.port()).findFirst().orElseThrow();
    long window = RedisKeys.windowFarFromItsEdges();
    String prefix = "reshard";
    // A budget ample on loopback, so that only a redirect can send a decision local here.
    RedisSettings settings =
        RedisSettings.cluster(ClusterStores.seedUris(cluster), ClusterStores.TIMEOUT_MILLIS, 16);
    Map<String, Long> redirectsBefore = errorReplies(from);
    long askingBefore = askingCalls(to);
    List<String> logged;
    try (LogCapture log = LogCapture.of("dev.sluice.store.redis");
        RedisStore store = RedisStore.open(settings, prefix, 1, Clock.SYSTEM, 10_000);
        Jedis source = node(from);
        Jedis target = node(to)) {
      logged = log.messages();
      Counters counters = store.counters("reshard", Algorithm.FIXED_WINDOW, window);
      Quota quota = Quota.of(LIMIT, window, LIMIT);
      Load load = new Load(store, counters, identities, quota);
      load.start();
      try {
        load.awaitEach(50);
        String fromId = source.clusterMyId();
        String toId = target.clusterMyId();
        load.phase("migrating");
        target.clusterSetSlotImporting(slot, fromId);
        source.clusterSetSlotMigrating(slot, toId);
        for (List<String> keys = source.clusterGetKeysInSlot(slot, 1);
            !keys.isEmpty();
            keys = source.clusterGetKeysInSlot(slot, 1)) {
          source.migrate(
              to.host(), to.port(), 0, 5_000, new MigrateParams(), keys.toArray(new String[0]));
          Thread.sleep(BETWEEN_KEYS_MILLIS);
        }
        load.phase("handed over");
        // The new master first, as redis-cli does: the old one then redirects to a master that
        // already serves the slot.
        target.clusterSetSlotNode(slot, toId);
        source.clusterSetSlotNode(slot, toId);
        for (RedisProcess other : cluster.masters()) {
          if (other.port() != from.port() && other.port() != to.port()) {
            try (Jedis third = node(other)) {
              third.clusterSetSlotNode(slot, toId);
            }
          }
        }
        Thread.sleep(AFTER_HANDOVER_MILLIS);
      } finally {
        load.stop();
      }
      System.out.printf(
          "Resharding slot %d from %d to %d: decisions %s, admitted %s, local %s%n",
          slot, from.port(), to.port(), load.decided, load.admitted, load.local);
      assertThat(load.thrown).as("exceptions from acquire()").isEmpty();
      assertThat(load.local)
          .as("decisions made locally, by phase (the first: %s)", load.firstLocal)
          .isEmpty();
      assertThat(load.decided)
          .as("decisions by phase")
          .allSatisfy((phase, n) -> assertThat(n.get()).as(phase).isPositive());
      assertThat(cluster.masterForSlot(slot).port()).as("the slot's master").isEqualTo(to.port());
      assertThat(target.clusterCountKeysInSlot(slot)).as("keys moved").isEqualTo(IDENTITIES);
      assertThat(source.clusterCountKeysInSlot(slot)).as("keys left behind").isZero();
      Map<String, Long> redirects = errorReplies(from);
      for (String kind : List.of("ASK", "MOVED")) {
        assertThat(redirects.getOrDefault(kind, 0L) - redirectsBefore.getOrDefault(kind, 0L))
            .as("%s replies of the old master", kind)
            .isPositive();
      }
      assertThat(askingCalls(to) - askingBefore).as("ASKING sent to the new master").isPositive();
      try (JedisCluster reader = ClusterStores.readClient(cluster)) {
        for (int i = 0; i < IDENTITIES; i++) {
          String key =
              RedisKeys.key(prefix, identities.get(i), "reshard", Algorithm.FIXED_WINDOW, window);
          assertThat(RedisKeys.count(reader.get(key)))
              .as("%s: counted in Redis = admitted", identities.get(i))
              .isEqualTo(load.admitted.get(i));
        }
      }
      // The rest of each limit, exactly: all of it is admitted, and then not one more.
      for (int i = 0; i < IDENTITIES; i++) {
        String identity = identities.get(i);
        Verdict rest = take(store, counters, identity, quota, LIMIT - load.admitted.get(i));
        assertThat(rest.allowed()).as("%s: the rest of the limit", identity).isTrue();
        Verdict beyond = take(store, counters, identity, quota, 1);
        assertThat(beyond.allowed()).as("%s: one beyond the limit", identity).isFalse();
        assertThat(beyond.retryAfterMicros())
            .as("%s: denied by Redis, until the window ends", identity)
            .isGreaterThan(TimeUnit.SECONDS.toMicros(1));
      }
    }
    assertThat(logged).as("what the store logged").noneMatch(m -> m.contains("is failing"));
  }

  /** {@link #IDENTITIES} identities whose keys all hash to one slot. */
  private static List<String> identitiesInOneSlot() {
    Map<Integer, List<String>> bySlot = new HashMap<>();
    for (int n = 0; n < 1_000_000; n++) {
      String identity = "ip=10.9." + n;
      List<String> same =
          bySlot.computeIfAbsent(ClusterStores.slotOf(identity), s -> new ArrayList<>());
      same.add(identity);
      if (same.size() == IDENTITIES) {
        return same;
      }
    }
    throw new IllegalStateException("no slot holds " + IDENTITIES + " identities");
  }

  private static Jedis node(RedisProcess node) {
    return new Jedis(node.host(), node.port());
  }

  /** The error replies {@code node} has given, by kind: INFO errorstats. */
  private static Map<String, Long> errorReplies(RedisProcess node) {
    Map<String, Long> counts = new HashMap<>();
    try (Jedis jedis = node(node)) {
      for (String line : jedis.info("errorstats").split("\r\n")) {
        if (line.startsWith("errorstat_")) {
          String kind = line.substring("errorstat_".length(), line.indexOf(':'));
          counts.put(kind, Long.parseLong(line.substring(line.indexOf('=') + 1)));
        }
      }
    }
    return counts;
  }

  /** How many ASKING commands {@code node} has served: INFO commandstats. */
  private static long askingCalls(RedisProcess node) {
    try (Jedis jedis = node(node)) {
      for (String line : jedis.info("commandstats").split("\r\n")) {
        if (line.startsWith("cmdstat_asking:calls=")) {
          return Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
        }
      }
      return 0;
    }
  }

  private static Verdict take(
      RedisStore store, Counters counters, String identity, Quota quota, long cost) {
    Permit permit = new Permit(counters, identity, quota, cost, OnError.FAIL_CLOSED);
    store.acquire(List.of(permit));
    return permit.verdict();
  }

  /**
   * Callers deciding for every identity in turn, bounded in count and time, keeping count per phase
   * of the migration of what was decided, and of what was decided locally.
   */
  private static final class Load {
    final AtomicIntegerArray admitted = new AtomicIntegerArray(IDENTITIES);
    final Map<String, AtomicInteger> decided = new LinkedHashMap<>();
    final Map<String, AtomicInteger> local = new ConcurrentHashMap<>();
    final Queue<Throwable> thrown = new ConcurrentLinkedQueue<>();
    volatile String firstLocal;

    private final RedisStore store;
    private final Counters counters;
    private final List<String> identities;
    private final Quota quota;
    private final List<Thread> threads = new ArrayList<>();
    private volatile String phase = "before";
    private volatile boolean stopped;

    Load(RedisStore store, Counters counters, List<String> identities, Quota quota) {
      this.store = store;
      this.counters = counters;
      this.identities = identities;
      this.quota = quota;
      for (String p : List.of("before", "migrating", "handed over")) {
        decided.put(p, new AtomicInteger());
      }
    }

    void phase(String next) {
      phase = next;
    }

    void start() {
      long deadline = System.nanoTime() + MAX_RUN_NANOS;
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        Thread caller = new Thread(() -> run(thread, deadline), "reshard-load-" + t);
        caller.setDaemon(true);
        threads.add(caller);
        caller.start();
      }
    }

    private void run(int thread, long deadline) {
      for (int n = 0; n < MAX_PER_THREAD && !stopped && System.nanoTime() < deadline; n++) {
        int which = (n + thread) % identities.size();
        String during = phase;
        try {
          Verdict v = take(store, counters, identities.get(which), quota, 1);
          decided.get(during).incrementAndGet();
          if (v.allowed()) {
            admitted.incrementAndGet(which);
          } else {
            local.computeIfAbsent(during, p -> new AtomicInteger()).incrementAndGet();
            if (firstLocal == null) {
              firstLocal = identities.get(which) + " " + during + ": " + v;
            }
          }
        } catch (Throwable e) {
          thrown.add(e);
        }
        LockSupport.parkNanos(PAUSE_NANOS);
      }
    }

    /** Waits until every identity has {@code atLeast} admissions: its key is on the old master. */
    void awaitEach(int atLeast) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      for (int i = 0; i < IDENTITIES; i++) {
        while (admitted.get(i) < atLeast && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(admitted.get(i))
            .as("admitted for %s", identities.get(i))
            .isGreaterThanOrEqualTo(atLeast);
      }
    }

    void stop() throws InterruptedException {
      stopped = true;
      for (Thread thread : threads) {
        thread.join(10_000);
        assertThat(thread.isAlive()).as(thread.getName() + " still deciding").isFalse();
      }
    }
  }
}
