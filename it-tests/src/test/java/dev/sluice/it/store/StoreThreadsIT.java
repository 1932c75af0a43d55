package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.Await;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.it.redis.WithOwnCluster;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The threads of a Redis store on a Redis Cluster, reachable or not, opened as a web application
 * opens it: every one named, daemon and with no context class loader, however many requests come
 * and from what threads, their number bounded, and none left once the store is closed. Jedis's
 * commons-pool evictor (one per JVM, daemon) sets its context loader itself, to its own.
 */
class StoreThreadsIT extends WithOwnCluster {
  private static final long MINUTE = 60_000_000;
  private static final String EVICTOR = "commons-pool-evictor";

  /** Two for each pipeline in flight at once: 8 lanes and at most 4 senders. */
  private static final int MOST_NODE_READERS = 24;

  StoreThreadsIT() {
    super(0);
  }

  @Test
  void aStoreOnAClusterStartsBoundedDaemonsThatKeepNoRequestsLoader() throws Exception {
    List<String> identities = new ArrayList<>();
    ClusterStores.identitiesByMaster(cluster, "ip=", 8).values().forEach(identities::addAll);
    Quota quota = Quota.of(1_000_000, MINUTE, 1_000_000);
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    AtomicInteger admitted = new AtomicInteger();
    int callers = 32;
    int each = 100;
    Set<Thread> started;
    try (URLClassLoader webApp = new URLClassLoader(new URL[0], null)) {
      RedisStore[] opened = new RedisStore[1];
      onThreadsOf(
          webApp,
          1,
          thread ->
              opened[0] =
                  RedisStore.open(settings(cluster.seedUris()), "threads", 1, Clock.SYSTEM, 100));
      try (RedisStore store = opened[0]) {
        Counters counters = store.counters("spread", Algorithm.FIXED_WINDOW, MINUTE);
        onThreadsOf(
            webApp,
            callers,
            thread -> {
              for (int i = 0; i < each; i++) {
                String identity = identities.get((i + thread) % identities.size());
                Permit permit = new Permit(counters, identity, quota, 1);
                store.acquire(List.of(permit));
                if (permit.verdict().allowed() && !permit.decidedLocally()) {
                  admitted.incrementAndGet();
                }
              }
            });
        started = startedSince(before);
        assertThat(admitted.get()).as("decisions made by Redis").isEqualTo(callers * each);
        assertDetached(started);
        assertThat(names(started))
            .as("threads of the store")
            .contains("sluice-redis-maintenance", "sluice-memory-sweeper")
            .anyMatch(name -> name.startsWith("sluice-redis-node-reader-"));
        assertThat(names(started))
            .filteredOn(name -> name.startsWith("sluice-redis-node-reader-"))
            .as("node readers")
            .hasSizeLessThanOrEqualTo(MOST_NODE_READERS);
      }
    }
    awaitEnded(started);
  }

  @Test
  void aStoreOnAClusterNobodyAnswersForStartsNoThreadWhileItRetries() throws Exception {
    List<String> seeds = List.of(RedisServers.unreachableUri());
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    Set<Thread> started;
    try (RedisStore store = RedisStore.open(settings(seeds), "threads", 1, Clock.SYSTEM, 100)) {
      Thread.sleep(3_500); // three more connects by the maintenance, one a second
      started = startedSince(before);
      assertDetached(started);
      assertThat(names(started))
          .as("threads of a store that retries every second")
          .containsExactlyInAnyOrder("sluice-redis-maintenance", "sluice-memory-sweeper");
    }
    awaitEnded(started);
  }

  private static RedisSettings settings(List<String> seeds) {
    return RedisSettings.cluster(seeds.stream().map(URI::create).toList(), 1_000, 8);
  }

  /** Named, daemon, with no context loader (but the evictor's own). */
  private static void assertDetached(Set<Thread> started) {
    assertThat(started)
        .allSatisfy(
            thread -> {
              assertThat(thread.getName()).matches("sluice-.*|" + EVICTOR);
              assertThat(thread.isDaemon()).as(thread.getName() + " is daemon").isTrue();
              if (!thread.getName().equals(EVICTOR)) {
                assertThat(thread.getContextClassLoader())
                    .as(thread.getName() + "'s context class loader")
                    .isNull();
              }
            });
  }

  /** The store's threads end once it is closed (the evictor once the JVM's last pool is). */
  private static void awaitEnded(Set<Thread> started) {
    Await.until(
        "the store's threads ended",
        Duration.ofSeconds(5),
        () -> started.stream().noneMatch(t -> t.isAlive() && !t.getName().equals(EVICTOR)),
        () -> "alive: " + names(started.stream().filter(Thread::isAlive).collect(Collectors.toSet())));
  }

  private static Set<Thread> startedSince(Set<Thread> before) {
    Set<Thread> now = new HashSet<>(Thread.getAllStackTraces().keySet());
    now.removeAll(before);
    now.removeIf(t -> !t.isAlive() || t.getName().startsWith("web-app-"));
    return now;
  }

  private static List<String> names(Set<Thread> threads) {
    return threads.stream().map(Thread::getName).sorted().toList();
  }

  /**
   * Runs {@code body} on {@code count} threads whose context loader is {@code loader}, as a
   * container runs requests, and waits for them.
   */
  private static void onThreadsOf(ClassLoader loader, int count, ThreadBody body)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(count);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    for (int t = 0; t < count; t++) {
      int thread = t;
      Thread request =
          new Thread(
              () -> {
                try {
                  body.run(thread);
                } catch (Throwable e) {
                  failures.add(e);
                } finally {
                  done.countDown();
                }
              },
              "web-app-request-" + t);
      request.setContextClassLoader(loader);
      request.start();
    }
    assertThat(done.await(60, TimeUnit.SECONDS)).as("requests done within a minute").isTrue();
    assertThat(failures).isEmpty();
  }

  private interface ThreadBody {
    void run(int thread) throws Exception;
  }
}
