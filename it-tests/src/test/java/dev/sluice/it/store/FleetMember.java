package dev.sluice.it.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisStore;
import dev.sluice.store.redis.ScriptTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import redis.clients.jedis.JedisPooled;

/**
 * One member of a fleet: a Redis store hammering the one shared key from many threads. Run as a
 * {@code main} in a JVM of its own by {@link FleetExactnessIT}; the test JVM's own members call
 * {@link #hammer} directly.
 *
 * <p>Arguments: host port prefix algorithm limit attempts threads windowMicros. The window is
 * chosen by the test (see {@link QuietWindow}) so every member counts in the same one. The child
 * prints {@code ready} once connected and warmed up, waits for {@code go <epoch millis>} on stdin,
 * starts at that instant (every member of the fleet runs on this machine's one clock, so all start
 * together however slowly each JVM reads its input), then prints {@code admitted <n> attempts <n>
 * millis <n>}.
 */
public final class FleetMember {
  static final String RULE = "fleet";
  static final String IDENTITY = "global";

  /** Generous: a decision that times out is decided locally (fail_open), not what is measured. */
  static final long TIMEOUT_MILLIS = 5_000;

  /** The most a member may hammer; every member ends well within it. */
  static final long BUDGET_MILLIS = 30_000;

  private FleetMember() {}

  public static void main(String[] args) throws Exception {
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    String prefix = args[2];
    Algorithm algorithm = Algorithm.valueOf(args[3]);
    long limit = Long.parseLong(args[4]);
    int attempts = Integer.parseInt(args[5]);
    int threads = Integer.parseInt(args[6]);
    long window = Long.parseLong(args[7]);
    try (RedisStore store = open(host, port, prefix)) {
      warmUp(store, algorithm, window);
      System.out.println("ready");
      long startAt = FleetSimulationMember.awaitGo();
      Result result =
          hammer(
              List.of(store),
              algorithm,
              Quota.of(limit, window, limit),
              threads,
              attempts,
              startAt);
      System.out.println(result);
      System.out.flush();
      if (result.attempts != (long) threads * attempts) {
        System.exit(3);
      }
    }
  }

  /** A store as each JVM of a fleet has one: its own connection pool, production Redis TIME. */
  static RedisStore open(String host, int port, String prefix) {
    return new RedisStore(
        new JedisPooled(host, port),
        "fleet",
        prefix,
        1,
        Clock.SYSTEM,
        1_000,
        ScriptTime.REDIS,
        TIMEOUT_MILLIS);
  }

  /**
   * Connects, loads the script and warms the code path on a key of its own, so the race on the
   * shared key is not decided by who finished class loading first.
   */
  static void warmUp(RedisStore store, Algorithm algorithm, long window) {
    Counters counters = store.counters("warm-up", algorithm, window);
    for (int i = 0; i < 20; i++) {
      Permit permit = new Permit(counters, "warm-up", Quota.of(1_000, window, 1_000), 1);
      store.acquire(Collections.singletonList(permit));
    }
  }

  /**
   * {@code threadsPerStore} threads on each store, released together, each making {@code attempts}
   * requests for the shared key (or fewer, if the time budget ran out: the result tells).
   */
  static Result hammer(
      List<RedisStore> stores,
      Algorithm algorithm,
      Quota quota,
      int threadsPerStore,
      int attempts,
      long startAtMillis)
      throws InterruptedException {
    AtomicLongArray admitted = new AtomicLongArray(stores.size());
    AtomicLong made = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int s = 0; s < stores.size(); s++) {
      RedisStore store = stores.get(s);
      int index = s;
      Counters counters = store.counters(RULE, algorithm, quota.windowMicros());
      for (int t = 0; t < threadsPerStore; t++) {
        Thread thread =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BUDGET_MILLIS);
                  for (int i = 0; i < attempts && System.nanoTime() < deadline; i++) {
                    Permit permit = new Permit(counters, IDENTITY, quota, 1);
                    store.acquire(Collections.singletonList(permit));
                    made.incrementAndGet();
                    if (permit.verdict().allowed()) {
                      admitted.incrementAndGet(index);
                    }
                  }
                },
                "fleet-member-" + threads.size());
        thread.start();
        threads.add(thread);
      }
    }
    Thread.sleep(Math.max(0, Math.min(5_000, startAtMillis - System.currentTimeMillis())));
    long began = System.nanoTime();
    start.countDown();
    long deadline = began + TimeUnit.MILLISECONDS.toNanos(BUDGET_MILLIS + 5_000);
    for (Thread thread : threads) {
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      thread.interrupt(); // only if it overran: a thread in acquire stops at the budget anyway
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    long[] perStore = new long[stores.size()];
    for (int s = 0; s < perStore.length; s++) {
      perStore[s] = admitted.get(s);
    }
    return new Result(perStore, made.get(), millis);
  }

  /** What one member did, in the line a child prints and the test parses. */
  static final class Result {
    final long admitted;
    final long[] perStore;
    final long attempts;
    final long millis;

    Result(long[] perStore, long attempts, long millis) {
      this.admitted = Arrays.stream(perStore).sum();
      this.perStore = perStore;
      this.attempts = attempts;
      this.millis = millis;
    }

    static Result parse(String line) {
      String[] f = line.split(" ");
      return new Result(
          new long[] {Long.parseLong(f[1])}, Long.parseLong(f[3]), Long.parseLong(f[5]));
    }

    /** The line a child prints; per store too when there are several. */
    @Override
    public String toString() {
      return "admitted "
          + admitted
          + " attempts "
          + attempts
          + " millis "
          + millis
          + (perStore.length > 1 ? " per store " + Arrays.toString(perStore) : "");
    }
  }
}
