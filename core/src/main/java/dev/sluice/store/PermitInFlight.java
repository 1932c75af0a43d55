package dev.sluice.store;

import dev.sluice.algo.Algorithm;

/**
 * One permit on its way through {@link MemoryStore}: where its identity lives and what state the
 * optimistic look saw there. The verdict computed from that state is reused under the lock if the
 * state has not moved, so the common case evaluates once.
 */
final class PermitInFlight {
  final Permit permit;
  final Table table;
  final long hi;
  final long lo;

  /**
   * Where the identity is counted: its segment, or the table's overflow when the budget is spent.
   */
  Segment target;

  int at;
  long seenFirst;
  long seenSecond;

  /** Where the optimistic look found the identity (-1 if not), in which array. */
  long[] seenSlots;

  int seenAt;
  boolean seenValid;

  /** The optimistic look's stamp when it validated, else 0. */
  long seenStamp;

  /** A key taken from the budget for an identity about to be inserted. */
  boolean reserved;

  PermitInFlight(Permit permit, Hash128 hash) {
    this.permit = permit;
    this.table = (Table) permit.counters;
    this.hi = hash.hi;
    this.lo = hash.lo;
  }

  Algorithm algorithm() {
    return table.algorithm();
  }

  /** Decides on a snapshot of the state, without a lock; true if that is a validated denial. */
  boolean deniedOptimistically(long now) {
    Segment segment = table.segmentOf(hi);
    long stamp = segment.lock.tryOptimisticRead();
    long[] slots = segment.slots;
    int found = Segment.find(slots, hi, lo);
    seenSlots = slots;
    seenAt = found;
    seenFirst = found >= 0 ? slots[found + 2] : 0;
    seenSecond = found >= 0 ? slots[found + 3] : 0;
    seenValid = stamp != 0 && segment.lock.validate(stamp);
    seenStamp = seenValid ? stamp : 0;
    algorithm().evaluate(seenFirst, seenSecond, now, permit.quota, permit.cost, permit.verdict);
    return seenValid && !permit.verdict.allowed();
  }

  /**
   * Commits an allowed verdict of the optimistic look if nothing was written to the segment since
   * that look: one compare-and-set turns the look's stamp into the write lock, which fails if any
   * writer (a request, a sweep, a resize, a retirement) locked it in between. The state the verdict
   * came from is then the current one, so the verdict is the one the lock would have given. Only
   * for an identity that has its slot; a new one takes the locked way, with its key budget.
   */
  boolean takenOnItsLook() {
    if (seenStamp == 0 || seenAt < 0 || !permit.verdict.allowed()) {
      return false;
    }
    Segment segment = table.segmentOf(hi);
    long stamp = segment.lock.tryConvertToWriteLock(seenStamp);
    if (stamp == 0) {
      return false;
    }
    seenSlots[seenAt + 2] = permit.verdict.nextFirst();
    seenSlots[seenAt + 3] = permit.verdict.nextSecond();
    segment.lock.unlockWrite(stamp);
    return true;
  }

  /**
   * Decides again under a read lock: when another rule's validated denial ends the request early,
   * this verdict must come from a real state, not a torn read, for it may supply the headers.
   */
  void evaluateConsistently(long now) {
    if (!seenValid) {
      evaluateRead(table.segmentOf(hi), hi, lo, now);
    }
  }

  /**
   * Decides as {@link MemoryStore#acquire} would for this permit alone, writing nothing: on the
   * same reads, and where an identity without a slot would be counted, in its own segment (fresh)
   * while the rule has keys to spare, else in the overflow.
   */
  void peek(long now) {
    if (deniedOptimistically(now)) {
      return; // final, as it is for acquire
    }
    boolean found = seenValid ? seenAt >= 0 : evaluateRead(table.segmentOf(hi), hi, lo, now);
    if (!found && (table.retired || table.budget.spent())) {
      evaluateRead(table.overflow, Table.OVERFLOW_HI, Table.OVERFLOW_LO, now);
    }
  }

  /**
   * Gives back what of this allowed token-bucket take (the TAT it left) has not refilled at {@code
   * now}, where the identity is counted: its own slot, else the overflow. The same arithmetic as
   * {@code token_bucket_refund} in {@code token_bucket.lua}, which says why it is exact.
   */
  void refund(long now) {
    if (!refundIn(table.segmentOf(hi), hi, lo, now)) {
      refundIn(table.overflow, Table.OVERFLOW_HI, Table.OVERFLOW_LO, now);
    }
  }

  private boolean refundIn(Segment segment, long hi, long lo, long now) {
    long stamp = segment.lockForWrite();
    try {
      int found = Segment.find(segment.slots, hi, lo);
      if (found >= 0) {
        long unspent =
            Math.min(permit.cost * permit.quota.emissionMicros(), permit.verdict.nextFirst() - now);
        if (unspent > 0) {
          segment.slots[found + 2] -= unspent;
        }
      }
      return found >= 0;
    } finally {
      segment.lock.unlockWrite(stamp);
    }
  }

  /** Decides on the state of ({@code hi}, {@code lo}) under a read lock; true if it has a slot. */
  private boolean evaluateRead(Segment segment, long hi, long lo, long now) {
    long stamp = segment.lock.readLock();
    try {
      int found = Segment.find(segment.slots, hi, lo);
      algorithm()
          .evaluate(
              found >= 0 ? segment.slots[found + 2] : 0,
              found >= 0 ? segment.slots[found + 3] : 0,
              now,
              permit.quota,
              permit.cost,
              permit.verdict);
      return found >= 0;
    } finally {
      segment.lock.unlockRead(stamp);
    }
  }

  /**
   * Chooses where to count before locking: the identity's own segment if it has a slot or a key can
   * be reserved for one, else the overflow.
   */
  void plan() {
    target = table.segmentOf(hi);
    if (seenAt < 0) {
      if (!table.retired && table.budget.tryTake()) {
        reserved = true;
      } else {
        target = table.overflow;
      }
    }
  }

  /**
   * Finds the identity in its target, whose lock the caller holds. A new identity gets no slot yet
   * ({@code at} stays -1, its state is fresh): only an allowed request makes one, so a flood that
   * other rules deny costs this rule no memory. False if the identity has no slot and may not get
   * one now (it was swept, or its rule retired, since it was looked at).
   */
  boolean locate() {
    if (target == table.overflow) {
      at = Segment.find(target.slots, Table.OVERFLOW_HI, Table.OVERFLOW_LO);
      return true;
    }
    long[] slots = target.slots;
    boolean stillThere =
        slots == seenSlots && seenAt >= 0 && slots[seenAt] == hi && slots[seenAt + 1] == lo;
    at = stillThere ? seenAt : Segment.find(slots, hi, lo);
    if (at >= 0 || !reserved || table.retired) {
      release();
      return at >= 0;
    }
    return true;
  }

  /** Gives back a reserved key that was not needed. */
  void release() {
    if (reserved) {
      table.budget.give(1);
      reserved = false;
    }
  }

  /** Re-decides under the lock if the state moved since the optimistic look. */
  void evaluateLocked(long now) {
    long first = at >= 0 ? target.slots[at + 2] : 0;
    long second = at >= 0 ? target.slots[at + 3] : 0;
    if (first != seenFirst || second != seenSecond) {
      algorithm().evaluate(first, second, now, permit.quota, permit.cost, permit.verdict);
    }
  }

  /** Stores the allowed state, making the identity's slot with its reserved key if it has none. */
  void commit() {
    if (at < 0) {
      at = target.insert(hi, lo);
      reserved = false;
    }
    long[] slots = target.slots;
    slots[at + 2] = permit.verdict.nextFirst();
    slots[at + 3] = permit.verdict.nextSecond();
  }

  /** Lock order: by table, then by segment within it (the overflow last). */
  int compareTo(PermitInFlight other) {
    int byTable = Integer.compare(table.ordinal, other.table.ordinal);
    return byTable != 0 ? byTable : Integer.compare(target.index, other.target.index);
  }
}
