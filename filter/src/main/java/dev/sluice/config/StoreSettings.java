package dev.sluice.config;

import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Store;

/** The {@code store} section. Unlike rules, a store is chosen at start-up only. */
public final class StoreSettings {
  static final StoreSettings DEFAULT = new StoreSettings("memory", MemoryStore.DEFAULT_MAX_KEYS);

  /** How often the memory store drops idle keys. */
  private static final long SWEEP_EVERY_MILLIS = 1_000;

  private final String type;
  private final long maxKeys;

  StoreSettings(String type, long maxKeys) {
    this.type = type;
    this.maxKeys = maxKeys;
  }

  public String type() {
    return type;
  }

  public long maxKeys() {
    return maxKeys;
  }

  Store open(Clock clock) {
    return new MemoryStore(clock, maxKeys, SWEEP_EVERY_MILLIS);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoreSettings
        && type.equals(((StoreSettings) o).type)
        && maxKeys == ((StoreSettings) o).maxKeys;
  }

  @Override
  public int hashCode() {
    return type.hashCode() * 31 + Long.hashCode(maxKeys);
  }

  @Override
  public String toString() {
    return type + " (max_keys " + maxKeys + ")";
  }
}
