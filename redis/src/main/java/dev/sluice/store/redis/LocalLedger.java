package dev.sluice.store.redis;

import dev.sluice.algo.Quota;
import dev.sluice.store.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * What this JVM admitted locally for fail_open rules while Redis could not answer, summed per Redis
 * key, so that {@link Handover} can charge it to Redis before limits are shared again.
 *
 * <p>Only the current window matters: each sum is tagged with its window index by this JVM's clock
 * (Redis TIME is out of reach when this is written), and once that window is over its admissions
 * are forgotten. That is exact for the fixed window, close enough for the token bucket (a window
 * refills a whole limit), and leaves out what a sliding window's previous window still weighs.
 */
final class LocalLedger {
  private static final Logger LOG = Logger.getLogger("dev.sluice.store.redis");

  /**
   * Beyond this many keys new ones are not remembered, so memory stays bounded however long Redis
   * is down and however many clients come: their admissions are simply not handed over.
   */
  static final int MAX_KEYS = 100_000;

  private final Clock clock;
  private final Map<String, Owed> owed = new ConcurrentHashMap<>();
  private final AtomicBoolean warnedFull = new AtomicBoolean();

  LocalLedger(Clock clock) {
    this.clock = clock;
  }

  /** Adds {@code cost} admitted locally for {@code key} of an algorithm code and rule quota. */
  void remember(String key, String code, Quota quota, long cost) {
    long window = clock.micros() / quota.windowMicros();
    owed.compute(
        key,
        (k, old) -> {
          if (old != null && old.window == window) {
            return new Owed(k, code, quota, window, old.cost + cost);
          }
          if (old == null && owed.size() >= MAX_KEYS) {
            warnFullOnce();
            return null;
          }
          return new Owed(k, code, quota, window, cost);
        });
  }

  /** Whether anything is owed for a window still current. */
  boolean owes() {
    return owes(key -> true);
  }

  /**
   * Whether anything is owed for a window still current to a key {@code which} accepts; it stops at
   * the first such key, without copying. A sum whose window is over owes nothing: counting it would
   * start a handover with nothing to send, which proves nothing of Redis.
   */
  boolean owes(Predicate<String> which) {
    long now = clock.micros();
    for (Owed o : owed.values()) {
      if (now / o.quota.windowMicros() == o.window && which.test(o.key)) {
        return true;
      }
    }
    return false;
  }

  /** What is owed for windows still current, one entry per key; forgets the rest. */
  List<Owed> due() {
    forgetEnded();
    return owed.isEmpty() ? Collections.<Owed>emptyList() : new ArrayList<>(owed.values());
  }

  /** Redis has counted {@code charged}: only what was admitted here since stays owed. */
  void charged(Owed charged) {
    owed.computeIfPresent(
        charged.key,
        (k, now) -> {
          if (now.window != charged.window) {
            return now;
          }
          long left = now.cost - charged.cost;
          return left > 0 ? new Owed(k, now.code, now.quota, now.window, left) : null;
        });
  }

  /** Drops sums whose window is over: nothing left to charge, and they would hold the budget. */
  void forgetEnded() {
    long now = clock.micros();
    for (Iterator<Owed> it = owed.values().iterator(); it.hasNext(); ) {
      Owed o = it.next();
      if (now / o.quota.windowMicros() != o.window) {
        it.remove();
      }
    }
  }

  private void warnFullOnce() {
    if (warnedFull.compareAndSet(false, true)) {
      LOG.warning(
          "Sluice: "
              + MAX_KEYS
              + " keys were admitted locally while Redis could not answer; what further keys "
              + "admit locally will not be handed over to Redis when it answers again.");
    }
  }

  /** The cost admitted locally for one key in one window, and how to charge it. */
  static final class Owed {
    final String key;
    final String code;
    final Quota quota;
    final long window;
    final long cost;

    Owed(String key, String code, Quota quota, long window, long cost) {
      this.key = key;
      this.code = code;
      this.quota = quota;
      this.window = window;
      this.cost = cost;
    }
  }
}
