package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.support.Daemons;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The embedded store: exact on one JVM, bounded in memory.
 *
 * <p>Why it looks like this. Each rule has its own {@link Table}: identities hashed to 128 bits in
 * flat open-addressing {@link Segment}s, so an idle key is about 70 bytes and no object, and a
 * lookup touches one cache line. A request first decides on an optimistic, lock-free read: a denial
 * seen there is final, so a client flooding past its limit never takes a lock, and a one-rule
 * request commits what it saw allowed with one compare-and-set if nothing moved since. Otherwise it
 * locks the segments of all its rules in one global order (table, then segment), re-decides only if
 * a state moved since the read, and commits every rule or none: all-or-nothing is exact, with no
 * refunds and no deadlock. Idle state equals fresh state, so a background sweep drops it without
 * losing a count, and a {@link KeyBudget} per rule caps how many identities it tracks; an identity
 * only takes a key when a request of it is allowed, so denied floods cost no memory.
 */
public final class MemoryStore implements Store {
  public static final long DEFAULT_MAX_KEYS = 1_000_000;
  private static final Logger LOG = Logger.getLogger("dev.sluice.store");

  private final Clock clock;
  private final long maxKeys;
  private final long seed = ThreadLocalRandom.current().nextLong();
  private final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();
  private final AtomicInteger ordinals = new AtomicInteger();
  private final ScheduledExecutorService sweeper;

  /**
   * @param sweepEveryMillis how often a daemon thread drops idle keys; 0 for none (tests call
   *     {@link #sweep()} themselves)
   */
  public MemoryStore(Clock clock, long maxKeys, long sweepEveryMillis) {
    if (maxKeys <= 0) {
      throw new IllegalArgumentException("max keys must be positive: " + maxKeys);
    }
    this.clock = clock;
    this.maxKeys = maxKeys;
    this.sweeper = sweepEveryMillis > 0 ? startSweeper(sweepEveryMillis) : null;
  }

  @Override
  public Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
    String name = ruleId + '/' + algorithm + '/' + windowMicros;
    Table table = tables.get(name);
    if (table == null) {
      Table fresh = new Table(ruleId, algorithm, windowMicros, ordinals.incrementAndGet(), maxKeys);
      table = tables.putIfAbsent(name, fresh);
      table = table == null ? fresh : table;
    }
    return table;
  }

  @Override
  public void acquire(List<Permit> permits) {
    take(permits, clock.micros());
  }

  /**
   * One pass at one instant: {@code together} all or nothing, then each of {@code alone} locked and
   * committed by itself, so none of them waits for, or depends on, another.
   */
  @Override
  public void acquire(List<Permit> together, List<Permit> alone) {
    long now = clock.micros();
    if (!together.isEmpty()) {
      take(together, now);
    }
    for (Permit permit : alone) {
      decideAlone(claim(permit), now);
    }
  }

  /** Takes every permit or none; one permit needs no array. */
  private void take(List<Permit> permits, long now) {
    if (permits.size() == 1) {
      decideAlone(claim(permits.get(0)), now);
    } else {
      decide(claims(permits), now);
    }
  }

  /** Each permit on its way, its identity hashed. */
  private PermitInFlight[] claims(List<Permit> permits) {
    PermitInFlight[] claims = new PermitInFlight[permits.size()];
    for (int i = 0; i < claims.length; i++) {
      claims[i] = claim(permits.get(i));
    }
    return claims;
  }

  private PermitInFlight claim(Permit permit) {
    // Made here, where it cannot escape: the JIT keeps it off the heap.
    return new PermitInFlight(permit, new Hash128(seed).of(permit.identity));
  }

  /** Takes one claim or not, as if alone. */
  private static void decideAlone(PermitInFlight claim, long now) {
    while (!decideOne(claim, now)) {
      // As in decide: look again.
    }
  }

  /** Takes every claim or none. */
  private static void decide(PermitInFlight[] claims, long now) {
    while (!decideOnce(claims, now)) {
      // An identity was swept, or its rule retired, between looking and locking: look again.
    }
  }

  @Override
  public void refund(List<Permit> permits) {
    long now = clock.micros();
    Hash128 hash = new Hash128(seed);
    for (Permit permit : permits) {
      if (permit.verdict.allowed()
          && ((Table) permit.counters).algorithm() == Algorithm.TOKEN_BUCKET) {
        new PermitInFlight(permit, hash.of(permit.identity)).refund(now);
      }
    }
  }

  @Override
  public void peek(List<Permit> permits) {
    long now = clock.micros();
    Hash128 hash = new Hash128(seed);
    for (Permit permit : permits) {
      new PermitInFlight(permit, hash.of(permit.identity)).peek(now);
    }
  }

  /** One attempt: false if it must be retried. */
  private static boolean decideOnce(PermitInFlight[] claims, long now) {
    boolean denied = false;
    for (PermitInFlight claim : claims) {
      denied |= claim.deniedOptimistically(now);
    }
    if (denied) {
      for (PermitInFlight claim : claims) {
        claim.evaluateConsistently(now);
      }
      return true;
    }
    for (PermitInFlight claim : claims) {
      claim.plan();
    }
    sortForLocking(claims);
    long[] stamps = new long[claims.length];
    int locked = 0;
    try {
      for (; locked < claims.length; locked++) {
        stamps[locked] = claims[locked].target.lockForWrite();
      }
      return decideLocked(claims, now);
    } finally {
      while (--locked >= 0) {
        claims[locked].target.lock.unlockWrite(stamps[locked]);
      }
      for (PermitInFlight claim : claims) {
        claim.release();
      }
    }
  }

  /**
   * The common case, one rule: the same steps without arrays of locks, and an allowed look at a
   * known identity taken at once if nothing moved since (see {@link
   * PermitInFlight#takenOnItsLook}).
   */
  private static boolean decideOne(PermitInFlight claim, long now) {
    if (claim.deniedOptimistically(now) || claim.takenOnItsLook()) {
      return true;
    }
    claim.plan();
    long stamp = claim.target.lockForWrite();
    try {
      if (!claim.locate()) {
        return false;
      }
      claim.evaluateLocked(now);
      if (claim.permit.verdict.allowed()) {
        claim.commit();
      }
      return true;
    } finally {
      claim.target.lock.unlockWrite(stamp);
      claim.release();
    }
  }

  private static boolean decideLocked(PermitInFlight[] claims, long now) {
    for (PermitInFlight claim : claims) {
      if (!claim.locate()) {
        return false;
      }
    }
    boolean allAllowed = true;
    for (PermitInFlight claim : claims) {
      claim.evaluateLocked(now);
      allAllowed &= claim.permit.verdict.allowed();
    }
    if (allAllowed) {
      for (PermitInFlight claim : claims) {
        claim.commit();
      }
    }
    return true;
  }

  /** Insertion sort: a request has a handful of rules at most. */
  private static void sortForLocking(PermitInFlight[] claims) {
    for (int i = 1; i < claims.length; i++) {
      PermitInFlight c = claims[i];
      int j = i - 1;
      for (; j >= 0 && claims[j].compareTo(c) > 0; j--) {
        claims[j + 1] = claims[j];
      }
      claims[j + 1] = c;
    }
  }

  @Override
  public void retainOnly(Collection<? extends Counters> live) {
    Map<Counters, Boolean> keep = new IdentityHashMap<>();
    for (Counters c : live) {
      keep.put(c, Boolean.TRUE);
    }
    for (Map.Entry<String, Table> entry : tables.entrySet()) {
      if (!keep.containsKey(entry.getValue()) && tables.remove(entry.getKey(), entry.getValue())) {
        entry.getValue().retire();
      }
    }
  }

  /** Drops every idle key now. */
  public void sweep() {
    long now = clock.micros();
    for (Table table : tables.values()) {
      table.sweep(now);
    }
  }

  /** The number of identities tracked, across rules. */
  public long keyCount() {
    long count = 0;
    for (Table table : tables.values()) {
      count += table.budget.used();
    }
    return count;
  }

  /** Stops the sweeper and waits for it, so a container undeploying the app sees no thread left. */
  @Override
  public void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
      try {
        sweeper.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private ScheduledExecutorService startSweeper(long everyMillis) {
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(Daemons.named("sluice-memory-sweeper"));
    executor.scheduleWithFixedDelay(
        this::sweepQuietly, everyMillis, everyMillis, TimeUnit.MILLISECONDS);
    return executor;
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Sluice memory sweep failed; will retry", e);
    }
  }
}
