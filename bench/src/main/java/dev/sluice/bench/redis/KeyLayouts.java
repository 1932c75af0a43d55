package dev.sluice.bench.redis;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.BiConsumer;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.params.SetParams;

/**
 * An experiment for the store's owner, not a benchmark of Sluice: what the same counters (three
 * rules per client, with TTLs) would cost in Redis under other key layouts, written directly with
 * the values Sluice's scripts store. It shows which part of a key's memory each change removes.
 */
final class KeyLayouts {
  private static final SetParams TTL = SetParams.setParams().px(600_000);
  private static final String[] RULES = {"login:f900000", "api:t86400000", "per-ip:s60000"};
  private static final byte[] INTEGER = "1796019160374449".getBytes(StandardCharsets.US_ASCII);
  private static final String[] VALUES = {"1995576:1", "1796019160374449", "29933651:0:1"};

  private final LocalRedis redis;
  private final PrintStream out;

  KeyLayouts(LocalRedis redis, PrintStream out) {
    this.redis = redis;
    this.out = out;
  }

  void run(int clients) throws InterruptedException {
    measure(
        "as Sluice writes them (3 strings)",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set("rl:{" + id + "}:" + RULES[r], VALUES[r], TTL);
          }
        });
    measure(
        "keys <= 28 chars (rule as 1 char)",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set("rl:{" + id + "}" + r, VALUES[r], TTL);
          }
        });
    measure(
        "short keys, one integer per value",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set("rl:{" + id + "}" + r, "1796019160374449", TTL);
          }
        });
    measure(
        "12-byte binary keys, integer values",
        clients,
        (pipe, id) -> {
          for (int r = 0; r < 3; r++) {
            pipe.set(binaryKey(id, r), INTEGER, TTL);
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

  /**
   * {@code {tt}} (a two-byte hash tag: the identity's cluster slot) and a 64-bit hash of prefix,
   * identity and rule: the shortest key that still keeps one identity's rules on one slot. Its SDS
   * string fits jemalloc's 16-byte class.
   */
  private static byte[] binaryKey(String identity, int rule) {
    long h = 1125899906842597L;
    for (char c : ("rl" + identity + rule).toCharArray()) {
      h = 31 * h + c;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    int tag = identity.hashCode();
    return ByteBuffer.allocate(12)
        .put((byte) '{')
        .putShort((short) tag)
        .put((byte) '}')
        .putLong(h)
        .array();
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
