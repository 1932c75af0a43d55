package dev.sluice.store.redis;

import dev.sluice.store.RulesInForce;
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
 *
 * <p>An auto fleet is never taken for fewer than its configured minimum. A JVM that starts while
 * Redis is down cannot count, nor remember a count from before it started, and a fleet that
 * restarts whole counts itself up over its first beats; taken for one JVM, each would enforce the
 * whole limit. The minimum is meant to be the fewest JVMs that ever run (an autoscaler's minimum),
 * so flooring the count by it costs nothing while the fleet is as large as that.
 */
final class Fleet {
  private static final Logger LOG = Logger.getLogger("dev.sluice.store.redis");
  static final long ALIVE_MICROS = 5_000_000;

  private final String key;
  private final String member = UUID.randomUUID().toString();
  private final boolean auto;
  private final int min;
  private volatile int size;

  /**
   * @param fixedSize the configured size, or 0 for auto
   * @param min the fewest JVMs an auto fleet is taken for, before it is counted and after
   */
  Fleet(String prefix, int fixedSize, int min) {
    this.key = prefix + ":fleet";
    this.auto = fixedSize == 0;
    this.min = auto ? min : fixedSize;
    this.size = this.min;
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
      int now = (int) Math.max(min, (Long) counted);
      if (now != size) {
        LOG.info(
            "Sluice: "
                + now
                + " JVMs share the limits instead of "
                + size
                + " "
                + RulesInForce.named()
                + ".");
        size = now;
      }
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "fleet heartbeat failed; keeping the size of " + size, e);
    }
  }
}
