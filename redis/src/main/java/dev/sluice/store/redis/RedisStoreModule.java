package dev.sluice.store.redis;

import dev.sluice.store.Clock;
import dev.sluice.store.RedisModule;
import dev.sluice.store.RedisTarget;
import dev.sluice.store.RulesPublication;
import dev.sluice.store.Store;

/** This module, as the engine finds it (META-INF/services/dev.sluice.store.RedisModule). */
public final class RedisStoreModule implements RedisModule {
  @Override
  public Store open(
      RedisTarget target,
      String keyPrefix,
      int fleetSize,
      int fleetMin,
      Clock clock,
      long maxLocalKeys) {
    return RedisStore.open(
        RedisSettings.of(target), keyPrefix, fleetSize, fleetMin, clock, maxLocalKeys);
  }

  @Override
  public RulesPublication publishedRules(RedisTarget target, String keyPrefix, int timeoutMillis) {
    return PublishedRules.open(RedisSettings.of(target), keyPrefix, timeoutMillis);
  }
}
