package dev.sluice.store.redis;

import dev.sluice.store.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The design notes' LOCAL_DENY: keys Redis has just denied, with the time until which it will keep
 * denying them if nothing else happens. A request for such a key is denied here without a round
 * trip, which keeps a flooding client off the shard. It only ever denies, and only what Redis
 * itself promised to deny; a reload forgets everything, since limits may have changed.
 */
final class LocalDenials {
  /** Beyond this many keys new denials are not remembered: memory stays bounded under any flood. */
  static final int MAX_KEYS = 100_000;

  private final Clock clock;
  private final Map<String, Long> untilMicros = new ConcurrentHashMap<>();

  LocalDenials(Clock clock) {
    this.clock = clock;
  }

  /** Microseconds until {@code key} may be asked again, or 0 if it may be asked now. */
  long deniedFor(String key) {
    Long until = untilMicros.get(key);
    if (until == null) {
      return 0;
    }
    long left = until - clock.micros();
    if (left <= 0) {
      untilMicros.remove(key, until);
      return 0;
    }
    return left;
  }

  void remember(String key, long retryAfterMicros) {
    if (untilMicros.size() < MAX_KEYS) {
      untilMicros.put(key, clock.micros() + retryAfterMicros);
    }
  }

  void forgetAll() {
    untilMicros.clear();
  }

  /** Drops expired entries. */
  void sweep() {
    long now = clock.micros();
    for (Iterator<Long> it = untilMicros.values().iterator(); it.hasNext(); ) {
      if (it.next() <= now) {
        it.remove();
      }
    }
  }
}
