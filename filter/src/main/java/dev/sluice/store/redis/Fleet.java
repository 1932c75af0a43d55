package dev.sluice.store.redis;

import java.util.Arrays;
import java.util.Collections;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.UnifiedJedis;

/**
 * How many JVMs share the limits: a configured number, or {@code auto}, where each JVM beats into a
 * Redis sorted set every second and counts the members alive in the last few seconds. The last
 * count is remembered through an outage, which is exactly when it is needed: each JVM then enforces
 * its share of the limit alone.
 */
final class Fleet {
  private static final Logger LOG = Logger.getLogger("dev.sluice.store.redis");
  static final long ALIVE_MICROS = 5_000_000;

  private final String key;
  private final String member = UUID.randomUUID().toString();
  private final boolean auto;
  private volatile int size;

  /**
   * @param fixedSize the configured size, or 0 for auto
   */
  Fleet(String prefix, int fixedSize) {
    this.key = prefix + ":fleet";
    this.auto = fixedSize == 0;
    this.size = auto ? 1 : fixedSize;
  }

  int size() {
    return size;
  }

  boolean isAuto() {
    return auto;
  }

  /** One heartbeat; keeps the last size if Redis does not answer. */
  void beat(UnifiedJedis redis, ScriptTime time) {
    try {
      Object counted =
          Script.HEARTBEAT.run(
              redis,
              Collections.singletonList(key),
              Arrays.asList(member, Long.toString(ALIVE_MICROS), time.arg()));
      int now = (int) Math.max(1, (Long) counted);
      if (now != size) {
        LOG.info("Sluice: " + now + " JVMs share the limits (was " + size + ").");
        size = now;
      }
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "fleet heartbeat failed; keeping the size of " + size, e);
    }
  }
}
