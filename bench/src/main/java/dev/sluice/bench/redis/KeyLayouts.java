package dev.sluice.bench.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.store.redis.RedisKey;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.BiConsumer;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.params.SetParams;

/**
 * What the same counters (three rules per client, with TTLs) cost in Redis under other key layouts,
 * written directly: the layout the store used first, the steps to the one it uses now, and one hash
 * per client. It shows which part of a key's memory each change removes.
 */
final class KeyLayouts {
  private static final SetParams TTL = SetParams.setParams().px(600_000);
  private static final String[] RULES = {"login", "api", "per-ip"};
  private static final Algorithm[] ALGORITHMS = {
    Algorithm.FIXED_WINDOW, Algorithm.TOKEN_BUCKET, Algorithm.SLIDING_WINDOW
  };
  private static final long[] WINDOWS = {900_000_000L, 86_400_000_000L, 60_000_000L};

  /** What the readable keys ended with: the algorithm's letter and the window in ms. */
  private static final String[] OLD_SUFFIXES = {":f900000", ":t86400000", ":s60000"};

  /** The states the scripts wrote before and after they became integers (state.lua). */
  private static final String[] OLD_VALUES = {"1995576:1", "1796019160374449", "29933651:0:1"};

  private static final String[] VALUES = {"155761", "1796019160374449", "13651101"};

  private final LocalRedis redis;
  private final PrintStream out;

  KeyLayouts(LocalRedis redis, PrintStream out) {
    this.redis = redis;
    this.out = out;
  }

  void run(int clients) throws InterruptedException {
    measure(
        "readable keys, strings (until 12/2026)",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set("rl:{" + id + "}:" + RULES[r] + OLD_SUFFIXES[r], OLD_VALUES[r], TTL);
          }
        });
    measure(
        "keys <= 30 chars (rule as 1 char), strings",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set("rl:{" + id + "}" + r, OLD_VALUES[r], TTL);
          }
        });
    measure(
        "keys <= 30 chars, integer values",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set("rl:{" + id + "}" + r, VALUES[r], TTL);
          }
        });
    measure(
        "Sluice: 14-char hashed keys, integers",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set(RedisKey.of("rl", id, RULES[r], ALGORITHMS[r], WINDOWS[r]), VALUES[r], TTL);
          }
        });
    measure(
        "one hash per client, 1 TTL",
        clients,
        (pipe, id) -> {
          String key = "rl:{" + id + "}";
          for (int r = 0; r < 3; r++) {
            pipe.hset(key, RULES[r], VALUES[r]);
          }
          pipe.pexpire(key, 600_000);
        });
  }

  private void measure(String layout, int clients, BiConsumer<Pipeline, String> write)
      throws InterruptedException {
    redis.flushAll();
    Thread.sleep(500);
    double before = redis.info("memory", "used_memory");
    Pipeline pipe = redis.admin().pipelined();
    for (int i = 0; i < clients; i++) {
      write.accept(pipe, MemoryPerKey.client(i));
      if (i % 1000 == 999) {
        pipe.sync();
      }
    }
    pipe.sync();
    Thread.sleep(1_500); // lets serverCron finish rehashing
    double grown = redis.info("memory", "used_memory") - before;
    out.printf(
        Locale.ROOT,
        "  %-36s %,7d keys: %6.1f B per counter (%,d counters)%n",
        layout,
        redis.admin().dbSize(),
        grown / (3.0 * clients),
        3 * clients);
  }
}
