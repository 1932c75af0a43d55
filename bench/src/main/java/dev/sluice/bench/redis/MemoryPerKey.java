package dev.sluice.bench.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisKey;
import dev.sluice.store.redis.RedisStore;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Redis memory per key: writes about 100k keys through Sluice (three rules per client, one of each
 * algorithm, as one script call per client like a request matching three rules), then divides the
 * growth of {@code used_memory} by the number of keys. Every key has its TTL, so this includes the
 * expires dictionary; removing the TTLs afterwards (PERSIST) shows what they cost. The same for
 * Bucket4j's proxy manager, one bucket per client, as a reference.
 */
final class MemoryPerKey {
  private static final long MINUTE = 60_000_000L;
  private static final long DAY = 1440 * MINUTE;

  private final LocalRedis redis;
  private final PrintStream out;

  MemoryPerKey(LocalRedis redis, PrintStream out) {
    this.redis = redis;
    this.out = out;
  }

  /** The {@code i}-th of 65,536 client identities in 203.0.0.0/16. */
  static String client(int i) {
    return "ip=203.0." + (i >>> 8 & 255) + "." + (i & 255);
  }

  /** Returns Sluice's bytes per key, TTL included. */
  double run(int clients) throws InterruptedException {
    double sluice;
    try (RedisStore store = SluiceContender.open(redis.port())) {
      // Login attempts per 15 minutes, an API quota per day, requests per IP per minute: every
      // key outlives the measurement (a token bucket's key lives until the bucket is full again).
      Counters login = store.counters("login", Algorithm.FIXED_WINDOW, 15 * MINUTE);
      Counters api = store.counters("api", Algorithm.TOKEN_BUCKET, DAY);
      Counters perIp = store.counters("per-ip", Algorithm.SLIDING_WINDOW, MINUTE);
      Quota logins = Quota.of(5, 15 * MINUTE, 5);
      Quota daily = Quota.of(1000, DAY, 1000);
      Quota perMinute = Quota.of(1000, MINUTE, 1000);
      store.acquire(List.of(new Permit(api, "warm", daily, 1))); // loads the script
      sluice =
          measure(
              "Sluice, 3 rules per client",
              clients,
              i -> {
                String id = client(i);
                store.acquire(
                    List.of(
                        new Permit(login, id, logins, 1),
                        new Permit(api, id, daily, 1),
                        new Permit(perIp, id, perMinute, 1)));
              },
              this::samples);
    }
    int keys = 3 * clients;
    try (Bucket4jContender bucket4j =
        new Bucket4jContender(redis.port(), keys, false, 8, Duration.ofMinutes(10))) {
      measure("Bucket4j, 1 bucket per key", keys, bucket4j::take, () -> {});
    }
    return sluice;
  }

  /** Fills an empty server with {@code write}, 8 threads; reports and returns bytes per key. */
  private double measure(String what, int clients, IntConsumer write, Runnable describe)
      throws InterruptedException {
    redis.flushAll();
    Thread.sleep(500);
    double before = redis.info("memory", "used_memory");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    for (int t = 0; t < 8; t++) {
      int first = t;
      pool.execute(
          () -> {
            for (int i = first; i < clients; i += 8) {
              write.accept(i);
            }
          });
    }
    pool.shutdown();
    pool.awaitTermination(10, TimeUnit.MINUTES);
    Thread.sleep(1_500); // lets serverCron finish any rehashing of the key and expires tables
    double withTtl = redis.info("memory", "used_memory") - before;
    long keys = redis.admin().dbSize();
    long volatileKeys = redis.expires();
    describe.run();
    persistAll();
    Thread.sleep(1_500);
    double withoutTtl = redis.info("memory", "used_memory") - before;
    out.printf(
        Locale.ROOT,
        "%-32s %,8d keys (%,d with a TTL): %6.1f B/key with TTLs, %6.1f B/key after PERSIST"
            + " (TTL %4.1f B/key); used_memory grew %,.0f B%n",
        what,
        keys,
        volatileKeys,
        withTtl / keys,
        withoutTtl / keys,
        (withTtl - withoutTtl) / keys,
        withTtl);
    return withTtl / keys;
  }

  /** MEMORY USAGE (key, value and main-table entry; not the TTL's entry) of one client's keys. */
  private void samples() {
    String[] keys = {
      RedisKey.of(
          SluiceContender.PREFIX, client(12345), "login", Algorithm.FIXED_WINDOW, 15 * MINUTE),
      RedisKey.of(SluiceContender.PREFIX, client(12345), "api", Algorithm.TOKEN_BUCKET, DAY),
      RedisKey.of(SluiceContender.PREFIX, client(12345), "per-ip", Algorithm.SLIDING_WINDOW, MINUTE)
    };
    for (String key : keys) {
      out.printf(
          Locale.ROOT,
          "  %-16s %-18s MEMORY USAGE %3d B, encoding %-6s, PTTL %d ms%n",
          key,
          redis.admin().get(key),
          redis.admin().memoryUsage(key, 0),
          redis.admin().objectEncoding(key),
          redis.admin().pttl(key));
    }
  }

  private void persistAll() {
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.admin().scan(cursor, new ScanParams().count(1_000));
      Pipeline pipe = redis.admin().pipelined();
      for (String key : page.getResult()) {
        pipe.persist(key);
      }
      pipe.sync();
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
  }
}
