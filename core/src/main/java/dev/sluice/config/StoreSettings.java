package dev.sluice.config;

import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.RedisModule;
import dev.sluice.store.RedisTarget;
import dev.sluice.store.Store;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code store} and {@code fleet} sections. Settings that differ in anything, credentials
 * included, make a different store: a reload that changes them switches stores.
 */
public final class StoreSettings {
  static final String DEFAULT_KEY_PREFIX = "rl";

  /** What a key prefix may be, and how errors say it. */
  static final String KEY_PREFIX = "[A-Za-z0-9_.:-]{1,32}";

  static final String KEY_PREFIX_RULE = "must be 1 to 32 of A-Z a-z 0-9 _ . : -";
  static final StoreSettings DEFAULT = memory(MemoryStore.DEFAULT_MAX_KEYS);

  /** How often the memory store drops idle keys. */
  private static final long SWEEP_EVERY_MILLIS = 1_000;

  private final long maxKeys;
  private final RedisTarget redis;
  private final String keyPrefix;
  private final int fleetSize;
  private final int fleetMin;

  private StoreSettings(
      long maxKeys, RedisTarget redis, String keyPrefix, int fleetSize, int fleetMin) {
    this.maxKeys = maxKeys;
    this.redis = redis;
    this.keyPrefix = keyPrefix;
    this.fleetSize = fleetSize;
    this.fleetMin = fleetMin;
  }

  static StoreSettings memory(long maxKeys) {
    return new StoreSettings(maxKeys, null, DEFAULT_KEY_PREFIX, 1, 1);
  }

  /**
   * @param fleetSize JVMs sharing the limits, or 0 for auto
   * @param fleetMin the fewest JVMs an auto fleet is taken for
   */
  static StoreSettings redis(
      long maxKeys, RedisTarget redis, String keyPrefix, int fleetSize, int fleetMin) {
    return new StoreSettings(maxKeys, redis, keyPrefix, fleetSize, fleetMin);
  }

  /**
   * The Redis store at {@code urls}, one server or the seed nodes of a Redis Cluster, with every
   * other setting at its default: how the publishing commands name a Redis without a config file.
   * URLs may name environment variables as in the file: {@code redis://:${REDIS_PASSWORD}@redis}.
   *
   * @throws IllegalArgumentException with a message fit for the user, which never repeats a URL (it
   *     may hold a password)
   */
  public static StoreSettings atRedis(
      List<String> urls, boolean cluster, String keyPrefix, Map<String, String> environment) {
    if (!keyPrefix.matches(KEY_PREFIX)) {
      throw new IllegalArgumentException(
          "the key prefix " + KEY_PREFIX_RULE + ", got \"" + keyPrefix + "\"");
    }
    List<URI> parsed = new ArrayList<>();
    for (String url : urls) {
      List<String> unset = new ArrayList<>();
      String text = UrlTemplate.expand(url, environment, unset);
      if (!unset.isEmpty()) {
        throw new IllegalArgumentException(
            "a Redis URL names the environment variable " + unset.get(0) + ", which is not set");
      }
      try {
        parsed.add(RedisTarget.parseUrl(text));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("a Redis URL " + e.getMessage(), e);
      }
    }
    int timeoutMillis = (int) (StoreReader.DEFAULT_TIMEOUT_MICROS / 1000);
    RedisTarget redis =
        cluster
            ? RedisTarget.cluster(parsed, timeoutMillis, StoreReader.DEFAULT_POOL_SIZE)
            : RedisTarget.standalone(parsed.get(0), timeoutMillis, StoreReader.DEFAULT_POOL_SIZE);
    return redis(MemoryStore.DEFAULT_MAX_KEYS, redis, keyPrefix, 0, 1);
  }

  /** The JVMs sharing the limits: the fleet's size, or for auto the fewest it is taken for. */
  int fleetAtLeast() {
    return fleetSize == 0 ? fleetMin : fleetSize;
  }

  public String type() {
    return redis == null ? "memory" : "redis";
  }

  public long maxKeys() {
    return maxKeys;
  }

  /** Where Redis is, or null for the memory store. */
  public RedisTarget redis() {
    return redis;
  }

  /** The first part of every Redis key: {@code rl} unless the file says otherwise. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /**
   * A new store as these settings say; the caller closes it.
   *
   * @throws IllegalStateException for a Redis store without the Redis module ({@link
   *     RedisModule#MISSING})
   */
  public Store open(Clock clock) {
    return redis == null
        ? new MemoryStore(clock, maxKeys, SWEEP_EVERY_MILLIS)
        : RedisModule.find().open(redis, keyPrefix, fleetSize, fleetMin, clock, maxKeys);
  }

  private String describe() {
    return redis == null
        ? "memory (max_keys " + maxKeys + ")"
        : "redis "
            + redis.describe()
            + " (key_prefix "
            + keyPrefix
            + ", fleet "
            + (fleetSize == 0 ? "auto" : Integer.toString(fleetSize))
            + (fleetMin > 1 ? " min " + fleetMin : "")
            + ", max_keys "
            + maxKeys
            + ")";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StoreSettings)) {
      return false;
    }
    StoreSettings other = (StoreSettings) o;
    return maxKeys == other.maxKeys
        && Objects.equals(redis, other.redis)
        && keyPrefix.equals(other.keyPrefix)
        && fleetSize == other.fleetSize
        && fleetMin == other.fleetMin;
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxKeys, redis, keyPrefix, fleetSize, fleetMin);
  }

  @Override
  public String toString() {
    return describe();
  }
}
