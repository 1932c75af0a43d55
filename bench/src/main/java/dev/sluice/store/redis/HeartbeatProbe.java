package dev.sluice.store.redis;

import java.util.Arrays;
import java.util.Collections;
import redis.clients.jedis.UnifiedJedis;

/**
 * For the scaling figures only: one beat of the store's own fleet heartbeat script ({@code
 * heartbeat.lua}, run by SHA-1 as {@link Fleet} runs it), for a member the caller names, so that a
 * benchmark can measure what a fleet of thousands of JVMs costs the master holding the fleet's key.
 * In the store's package (in the benchmarks jar, not the filter) because {@link Script} is not
 * public.
 */
public final class HeartbeatProbe {
  private HeartbeatProbe() {}

  /** The fleet's key for {@code prefix}, as {@link Fleet} names it. */
  public static String key(String prefix) {
    return prefix + ":fleet";
  }

  /** One beat of {@code member}; returns the fleet size the script counted. */
  public static long beat(UnifiedJedis redis, String prefix, String member) {
    Object counted =
        Script.HEARTBEAT.run(
            redis,
            Collections.singletonList(key(prefix)),
            Arrays.asList(member, Long.toString(Fleet.ALIVE_MICROS), ScriptTime.REDIS.arg()));
    return (Long) counted;
  }
}
