package dev.sluice.it.store;

import dev.sluice.store.Clock;
import dev.sluice.store.redis.ScriptTime;

/** Lets a test dictate the scripts' "now" exactly, so Redis is driven by hand like memory is. */
final class RedisTime {
  private RedisTime() {}

  static ScriptTime following(Clock clock) {
    return () -> "=" + clock.micros();
  }
}
