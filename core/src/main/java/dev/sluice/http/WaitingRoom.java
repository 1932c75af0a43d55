package dev.sluice.http;

import dev.sluice.core.Decision;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rule;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Where a request of a rule with a {@code delay} waits for its slot, on the request's own thread:
 * the slot is reserved already (the store took it as a permit), so waiting is only sleeping until
 * it comes. Waiting holds a server thread, so at most {@code delay.max_waiting} requests of a rule,
 * and the file's {@code max_waiting} of all rules, wait at once in this JVM; a request that finds
 * no place is denied at once, its slot given back. So is one whose wait is interrupted.
 *
 * <p>The places are counted per rule id and size, so a reload that keeps a rule keeps its count of
 * waiting requests; a reload that changes a size starts a fresh count, and for as long as the
 * requests under the old size still wait, both may be filled.
 */
final class WaitingRoom {
  /** How a thread waits; tests pass one that only records. */
  interface Sleeper {
    void sleep(long micros) throws InterruptedException;
  }

  static final Sleeper THREAD = TimeUnit.MICROSECONDS::sleep;

  private final ConcurrentMap<String, Semaphore> places = new ConcurrentHashMap<>();
  private final Sleeper sleeper;

  WaitingRoom(Sleeper sleeper) {
    this.sleeper = sleeper;
  }

  /**
   * Holds an allowed {@code decision} until its slot. Returns it as it is when the request may be
   * served, or the denial it becomes when it found no place to wait or its wait was interrupted.
   */
  Decision hold(Decision decision, Limiter limiter) {
    int delaying = decision.allowed() && decision.rules().delays() ? decision.delaying() : -1;
    if (delaying < 0) {
      return decision;
    }
    long wait = decision.waitMicros();
    Rule rule = decision.rules().rules().get(delaying);
    Semaphore total = places("", decision.rules().maxWaiting());
    Semaphore own = places(rule.id(), rule.delay().maxWaiting());
    if (!total.tryAcquire()) {
      return limiter.turnAway(decision, delaying, wait); // retry when its slot was due
    }
    try {
      if (!own.tryAcquire()) {
        return limiter.turnAway(decision, delaying, wait); // retry when its slot was due
      }
      try {
        sleeper.sleep(wait);
        limiter.countDelayed(decision, delaying, wait);
        return decision;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the container is stopping, most likely: say so
        return limiter.turnAway(decision, delaying, wait); // retry when its slot was due
      } finally {
        own.release();
      }
    } finally {
      total.release();
    }
  }

  private Semaphore places(String rule, int size) {
    String name = rule + '/' + size;
    Semaphore places = this.places.get(name);
    if (places == null) {
      Semaphore fresh = new Semaphore(size);
      places = this.places.putIfAbsent(name, fresh);
      places = places == null ? fresh : places;
    }
    return places;
  }
}
