package dev.sluice.config;

import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Store;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.util.Objects;

/**
 * The {@code store} and {@code fleet} sections. Settings that differ in anything, credentials
 * included, make a different store: a reload that changes them switches stores.
 */
public final class StoreSettings {
  static final String DEFAULT_KEY_PREFIX = "rl";
  static final StoreSettings DEFAULT = memory(MemoryStore.DEFAULT_MAX_KEYS);

  /** How often the memory store drops idle keys. */
  private static final long SWEEP_EVERY_MILLIS = 1_000;

  private final long maxKeys;
  private final RedisSettings redis;
  private final String keyPrefix;
  private final int fleetSize;
  private final int fleetMin;

  private StoreSettings(
      long maxKeys, RedisSettings redis, String keyPrefix, int fleetSize, int fleetMin) {
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
      long maxKeys, RedisSettings redis, String keyPrefix, int fleetSize, int fleetMin) {
    return new StoreSettings(maxKeys, redis, keyPrefix, fleetSize, fleetMin);
  }

  public String type() {
    return redis == null ? "memory" : "redis";
  }

  public long maxKeys() {
    return maxKeys;
  }

  /** Where Redis is, or null for the memory store. */
  RedisSettings redis() {
    return redis;
  }

  /** A new store as these settings say; the caller closes it. */
  public Store open(Clock clock) {
    return redis == null
        ? new MemoryStore(clock, maxKeys, SWEEP_EVERY_MILLIS)
        : RedisStore.open(redis, keyPrefix, fleetSize, fleetMin, clock, maxKeys);
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
