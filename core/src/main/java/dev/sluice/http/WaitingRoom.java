package dev.sluice.http;

import dev.sluice.core.Decision;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.core.Waiting;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a request of a rule with a {@code delay} waits for its slot, on the request's own thread:
 * the slot is reserved already (the store took it as a permit), so waiting is only sleeping until
 * it comes. Waiting holds a server thread, so at most {@code delay.max_waiting} requests of a rule
 * wait at once in this room, and the file's {@code max_waiting} of all rules in this JVM, counted
 * with every other copy of Sluice in it ({@link JvmWaiting}); a request that finds no place is
 * denied at once, its slot given back. So is one whose wait is interrupted.
 *
 * <p>The places are counted per rule id and size, so a reload that keeps a rule keeps its count of
 * waiting requests; a reload that changes a size starts a fresh count, and for as long as the
 * requests under the old size still wait, both may be filled. The first request after a reload
 * forgets the places of the rules no longer in force that nobody waits in, and the last request to
 * leave such a place forgets it: no lock on the way, and no place kept for a dropped rule.
 */
final class WaitingRoom {
  /** How a thread waits; tests pass one that only records. */
  interface Sleeper {
    void sleep(long micros) throws InterruptedException;
  }

  static final Sleeper THREAD = TimeUnit.MICROSECONDS::sleep;

  private final ConcurrentMap<String, Places> places = new ConcurrentHashMap<>();
  private final Sleeper sleeper;

  /** The rules whose places were last tidied: other rules in force mean a reload since. */
  private volatile Rules tidied = Rules.NONE;

  WaitingRoom(Sleeper sleeper) {
    this.sleeper = sleeper;
  }

  /**
   * Holds an allowed {@code decision} until its slot. Returns it as it is when the request may be
   * served, or the denial it becomes when it found no place to wait or its wait was interrupted.
   */
  Decision hold(Decision decision, Limiter limiter) {
    return hold(decision, limiter, Held.NOTHING);
  }

  /**
   * {@link #hold(Decision, Limiter)} for a request that {@code held} at entry already: the wait it
   * spent there counts against its one wait budget, so a request whose slot is further away than
   * what is left of it is turned away.
   */
  Decision hold(Decision decision, Limiter limiter, Held held) {
    Rules now = limiter.rules();
    if (now != tidied) {
      tidy(now);
    }
    int delaying = decision.delaying();
    if (delaying < 0) {
      return decision;
    }
    long wait = decision.waitMicros();
    Rule rule = decision.rules().rules().get(delaying);
    if (wait > held.budgetLeft(rule.delay().maxWaitMicros())) {
      return limiter.turnAway(decision, delaying, wait); // the entry spent the budget
    }
    Places own = places(rule.id(), rule.delay().maxWaiting());
    // Asked for here, where a request waits, not when the room is made: the agent makes its
    // rooms while the rules load, before the application has set up the platform MBean server
    // that the JVM's count is published in. After the first, one volatile read.
    AtomicInteger inJvm = JvmWaiting.count();
    if (inJvm.incrementAndGet() > decision.rules().maxWaiting()) {
      inJvm.decrementAndGet();
      return limiter.turnAway(decision, delaying, wait); // retry when its slot was due
    }
    try {
      if (!own.tryAcquire()) {
        return limiter.turnAway(decision, delaying, wait); // retry when its slot was due
      }
      Waiting waiting = limiter.waiting(decision, delaying);
      try {
        sleeper.sleep(wait);
        waiting.served(wait);
        return decision;
      } catch (InterruptedException e) {
        waiting.left();
        Thread.currentThread().interrupt(); // the container is stopping, most likely: say so
        return limiter.turnAway(decision, delaying, wait); // retry when its slot was due
      } finally {
        own.release();
      }
    } finally {
      inJvm.decrementAndGet();
      if (decision.rules() != tidied) {
        tidy(limiter.rules()); // decided before a reload: its places may be no rule's now
      }
    }
  }

  /** Forgets the places of rules not in {@code now} that nobody waits in. */
  private void tidy(Rules now) {
    tidied = now;
    Set<String> inForce = new HashSet<>();
    for (Rule rule : now.rules()) {
      if (rule.delay() != null) {
        inForce.add(name(rule.id(), rule.delay().maxWaiting()));
      }
    }
    for (Map.Entry<String, Places> kept : places.entrySet()) {
      Places p = kept.getValue();
      if (!inForce.contains(kept.getKey()) && p.availablePermits() == p.size) {
        places.remove(kept.getKey(), p);
      }
    }
  }

  /** The places kept, as rule id '/' size: for tests. */
  Set<String> places() {
    return places.keySet();
  }

  private Places places(String rule, int size) {
    String name = name(rule, size);
    Places places = this.places.get(name);
    if (places == null) {
      Places fresh = new Places(size);
      places = this.places.putIfAbsent(name, fresh);
      places = places == null ? fresh : places;
    }
    return places;
  }

  private static String name(String rule, int size) {
    return rule + '/' + size;
  }

  /** The places to wait in for one rule: all free when nobody waits. */
  private static final class Places extends Semaphore {
    private static final long serialVersionUID = 1L;

    final int size;

    Places(int size) {
      super(size);
      this.size = size;
    }
  }
}
