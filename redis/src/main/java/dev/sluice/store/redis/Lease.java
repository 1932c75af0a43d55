package dev.sluice.store.redis;

import dev.sluice.algo.Quota;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The permits this JVM holds of one key under one quota of a local-first rule: the grant being
 * spent and at most one fetched ahead, which takes over when the first is spent out or dies, so
 * that every permit is spent within the life of the grant it came from. Its size adapts to the
 * identity's rate: at one permit, a request that finds no grant takes its permit the exact way
 * ({@link #takesExactly}); asked a third time within a sync, the lease fetches two, doubles when a
 * grant is spent out within half a sync of its fetch by more requests than the one that fetched it,
 * and halves when one dies with permits left. {@link LeaseBook} fetches and gives back.
 */
final class Lease {
  final String key;
  final List<String> keys;
  final RedisCounters counters;
  final Quota quota;
  final LeaseTally tally;
  private final long syncMicros;

  private final AtomicReference<Grant> current = new AtomicReference<>();
  private final AtomicReference<Grant> next = new AtomicReference<>();

  /** The fetch in flight, if any: at most one per lease. */
  private final AtomicReference<CompletableFuture<Void>> fetch = new AtomicReference<>();

  /** How many permits the next fetch asks for, before the caps of {@link LeaseBook#want}. */
  private volatile long want = 1;

  private volatile long lastUsed;

  /** When the permits going the exact way for want of a grant began, and how many went since. */
  private volatile long exactSince = Long.MIN_VALUE / 2;

  private volatile int exactCount;

  /** Set once the book dropped it: a grant that arrives after is given back at once. */
  private volatile boolean forgotten;

  Lease(String key, RedisCounters counters, Quota quota, LeaseTally tally, long now) {
    this.key = key;
    this.keys = Collections.singletonList(key);
    this.counters = counters;
    this.quota = quota;
    this.tally = tally;
    this.syncMicros = counters.consistency.syncMicros();
    this.lastUsed = now;
  }

  /**
   * Spends {@code cost} permits of the live grant, or of the one fetched ahead once the live one
   * cannot serve; returns the grant spent from, or null when neither can. A grant replaced here is
   * handed to {@code ended}, to give back what it left.
   */
  Grant spend(long cost, long now, Ended ended) {
    lastUsed = now;
    while (true) {
      Grant live = current.get();
      if (live != null && !live.expired(now) && live.spend(cost)) {
        // Spent out within half a sync by more than one request: the next one lasts longer. A
        // grant no bigger than one request's cost (near the limit lease.lua may grant one) was
        // spent by the request that fetched it, which says nothing of the rate.
        if (live.left() == 0 && live.size > cost && now - live.sentAt < syncMicros / 2) {
          want = 2 * live.size;
        }
        return live;
      }
      Grant ahead = next.get();
      if (ahead == null || ahead.expired(now)) {
        if (live != null && live.left() == 0 && now - live.sentAt < syncMicros / 2) {
          want = Math.max(want, 2 * live.size); // asked again within half a sync of the last fetch
        }
        return null;
      }
      if (current.compareAndSet(live, ahead)) {
        next.compareAndSet(ahead, null);
        if (live != null) {
          ended.ended(this, live, now);
        }
      }
    }
  }

  /**
   * Whether a permit no grant could serve goes the exact way instead of waiting for a grant of
   * its own: the lease asks for one permit and has none coming. A grant costs a script run of its
   * own (lease.lua takes one key a call) and a give-back if it dies unspent, where an exact call
   * shares its run with every identity waiting in its round trip; an identity seen once, or twice
   * by chance, may not come back. So a cold or slow identity costs what an exact one does, and the
   * third request within one sync of the first starts the lease, of two. (With a second one
   * starting it, 10,000 clients at random, each back about once a second, leased and gave back for
   * one request in ten: two script runs of their own each, for nothing.)
   */
  boolean takesExactly(long now) {
    if (want > 1 || next.get() != null || fetch.get() != null) {
      return false;
    }
    if (now - exactSince >= syncMicros) {
      exactSince = now;
      exactCount = 1;
      return true;
    }
    if (exactCount < 2) {
      exactCount++;
      return true;
    }
    want = 2;
    return false;
  }

  /** Whether a grant fetched now would come ahead: {@code live} is half spent, none is ahead. */
  boolean wantsNext(Grant live) {
    return live.size >= 2 && live.left() <= live.size / 2 && next.get() == null;
  }

  /** Takes a grant Redis gave: ahead of a live grant with permits left, else in place of it. */
  void install(Grant grant, long now, Ended ended) {
    while (true) {
      Grant live = current.get();
      if (live != null && !live.expired(now) && live.left() > 0) {
        Grant replaced = next.getAndSet(grant);
        if (replaced != null) {
          ended.ended(this, replaced, now);
        }
        return;
      }
      if (current.compareAndSet(live, grant)) {
        if (live != null) {
          ended.ended(this, live, now);
        }
        return;
      }
    }
  }

  /**
   * Ends the grants that died or sat idle for a sync; returns whether the lease is empty and idle,
   * so that it can be forgotten.
   */
  boolean sweep(long now, Ended ended) {
    boolean idle = now - lastUsed >= syncMicros;
    endIf(current, idle, now, ended);
    endIf(next, idle, now, ended);
    return idle && current.get() == null && next.get() == null && fetch.get() == null;
  }

  /** Ends both grants: the rule is gone, or the lease was forgotten. */
  void end(long now, Ended ended) {
    endIf(current, true, now, ended);
    endIf(next, true, now, ended);
  }

  private void endIf(AtomicReference<Grant> slot, boolean idle, long now, Ended ended) {
    Grant grant = slot.get();
    if (grant != null && (idle || grant.expired(now)) && slot.compareAndSet(grant, null)) {
      ended.ended(this, grant, now);
    }
  }

  void forget() {
    forgotten = true;
  }

  boolean forgotten() {
    return forgotten;
  }

  /** A grant died with permits left: the next one asks for half as many. */
  void shrink() {
    want = Math.max(1, want / 2);
  }

  /** A fetch failed: back to one permit, taken the exact way, as a cold identity's is. */
  void failed() {
    want = 1;
  }

  long want() {
    return want;
  }

  /** Unspent permits held, in both grants. */
  long held() {
    return held(current.get()) + held(next.get());
  }

  private static long held(Grant grant) {
    return grant == null ? 0 : Math.max(0, grant.left());
  }

  /** Makes {@code mine} the fetch in flight, or returns the one in flight already. */
  CompletableFuture<Void> beginFetch(CompletableFuture<Void> mine) {
    while (true) {
      CompletableFuture<Void> theirs = fetch.get();
      if (theirs != null) {
        return theirs;
      }
      if (fetch.compareAndSet(null, mine)) {
        return null;
      }
    }
  }

  /** The fetch in flight, or null. */
  CompletableFuture<Void> fetching() {
    return fetch.get();
  }

  void endFetch() {
    fetch.set(null);
  }

  /** Hears of each grant that ends, whatever it left. */
  interface Ended {
    void ended(Lease lease, Grant grant, long now);
  }
}
