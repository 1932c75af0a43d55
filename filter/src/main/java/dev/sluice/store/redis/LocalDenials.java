package dev.sluice.store.redis;

import dev.sluice.algo.Verdict;
import dev.sluice.store.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The design notes' LOCAL_DENY: keys Redis has just denied, with the time until which it will keep
 * denying a request of at least that cost if nothing else happens (its retry-after). Such a request
 * is denied here without a round trip, which keeps a flooding client off the shard. It only ever
 * denies, and only what Redis itself promised to deny; a reload forgets everything, since limits
 * may have changed.
 */
final class LocalDenials {
  /** Beyond this many keys new denials are not remembered: memory stays bounded under any flood. */
  static final int MAX_KEYS = 100_000;

  private final Clock clock;
  private final Map<String, Denial> denials = new ConcurrentHashMap<>();

  LocalDenials(Clock clock) {
    this.clock = clock;
  }

  /**
   * Fills {@code out} and returns true if Redis promised to deny a request of {@code cost} for
   * {@code key} until later than now.
   */
  boolean deny(String key, long cost, Verdict out) {
    Denial denial = denials.get(key);
    if (denial == null) {
      return false;
    }
    long now = clock.micros();
    if (denial.retryUntil <= now) {
      denials.remove(key, denial);
      return false;
    }
    if (cost < denial.cost) {
      return false;
    }
    out.set(false, denial.remaining, denial.resetUntil - now, denial.retryUntil - now);
    return true;
  }

  void remember(String key, long cost, Verdict denied) {
    if (denials.size() < MAX_KEYS) {
      long now = clock.micros();
      denials.put(
          key,
          new Denial(
              now + denied.retryAfterMicros(),
              now + denied.resetMicros(),
              denied.remaining(),
              cost));
    }
  }

  void forgetAll() {
    denials.clear();
  }

  /** Drops expired entries. */
  void sweep() {
    long now = clock.micros();
    for (Iterator<Denial> it = denials.values().iterator(); it.hasNext(); ) {
      if (it.next().retryUntil <= now) {
        it.remove();
      }
    }
  }

  private static final class Denial {
    final long retryUntil;
    final long resetUntil;
    final long remaining;
    final long cost;

    Denial(long retryUntil, long resetUntil, long remaining, long cost) {
      this.retryUntil = retryUntil;
      this.resetUntil = resetUntil;
      this.remaining = remaining;
      this.cost = cost;
    }
  }
}
