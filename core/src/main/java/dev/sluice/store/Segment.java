package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import java.util.concurrent.locks.StampedLock;

/**
 * A part of one rule's table: open addressing with linear probing over one flat {@code long[]},
 * four longs a slot: identity hash (high, low) and algorithm state (first, second). There is no
 * object per identity, so an idle key costs about 60 bytes and a lookup one cache miss.
 *
 * <p>Everything that writes holds the write lock. Readers may also read optimistically (see {@link
 * StampedLock}): {@link #find} is bounded and never throws on a table being rewritten, and a caller
 * validates its stamp before trusting what it read.
 */
final class Segment {
  static final int SLOT = 4;
  private static final int MIN_SLOTS = 8;

  /** Write-lock attempts before yielding, then yields before blocking. */
  private static final int SPINS = 128;

  private static final int YIELDS = 64;

  final StampedLock lock = new StampedLock();

  /** Lock order within a table. */
  final int index;

  long[] slots;
  int size;

  Segment(int index) {
    this.index = index;
    this.slots = new long[MIN_SLOTS * SLOT];
  }

  /**
   * Takes the write lock, spinning briefly and then yielding before it blocks. StampedLock queues
   * and parks a contended writer almost at once, and a park-unpark costs microseconds where the
   * critical section costs tens of nanoseconds (docs/performance.md has what it cost contended
   * decisions). A spin waits for a holder running on another core, and each turn of it tells the
   * core so ({@link SpinWait}); without that hint (Java 8) it does not spin at all: on two vCPUs a
   * bare spin of 1,024 turns took the holder's time, about twice the CPU a contended decision cost
   * with the hint. Yielding covers a holder that lost its core.
   */
  long lockForWrite() {
    int spins = SpinWait.AVAILABLE ? SPINS : 0;
    for (int i = 0; i < spins + YIELDS; i++) {
      // Test before test-and-set: spinning on reads leaves the holder its cache line.
      long stamp = lock.isWriteLocked() ? 0 : lock.tryWriteLock();
      if (stamp != 0) {
        return stamp;
      }
      if (i < spins) {
        SpinWait.once();
      } else {
        Thread.yield();
      }
    }
    return lock.writeLock();
  }

  /** The offset of the identity's slot in {@code table}, or -1. */
  static int find(long[] table, long hi, long lo) {
    int mask = table.length / SLOT - 1;
    int i = home(lo, mask);
    for (int probes = 0; probes <= mask; probes++) {
      int at = i * SLOT;
      if (table[at + 1] == lo && table[at] == hi) {
        return at;
      }
      if (table[at + 1] == 0) {
        return -1;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  private static int home(long lo, int mask) {
    return (int) (lo >>> 32) & mask;
  }

  /** Adds an identity with a fresh state; returns its offset. Holds the write lock. */
  int insert(long hi, long lo) {
    if ((size + 1) * 4 > slots.length / SLOT * 3) {
      resize(slots.length / SLOT * 2);
    }
    size++;
    return place(slots, hi, lo, 0, 0);
  }

  private static int place(long[] table, long hi, long lo, long first, long second) {
    int mask = table.length / SLOT - 1;
    int i = home(lo, mask);
    while (table[i * SLOT + 1] != 0) {
      i = (i + 1) & mask;
    }
    int at = i * SLOT;
    table[at] = hi;
    table[at + 2] = first;
    table[at + 3] = second;
    table[at + 1] = lo;
    return at;
  }

  private void resize(int slotCount) {
    long[] grown = new long[slotCount * SLOT];
    for (int at = 0; at < slots.length; at += SLOT) {
      if (slots[at + 1] != 0) {
        place(grown, slots[at], slots[at + 1], slots[at + 2], slots[at + 3]);
      }
    }
    slots = grown;
  }

  /**
   * Drops the idle identities among {@code count} slots from {@code from}; returns how many. Holds
   * the write lock. Deleting shifts later entries back, so one may escape until the next sweep.
   */
  int sweep(int from, int count, long now, Algorithm algorithm, long windowMicros) {
    int dropped = 0;
    int end = Math.min(from + count, slots.length / SLOT);
    for (int i = from; i < end; i++) {
      int at = i * SLOT;
      while (slots[at + 1] != 0
          && algorithm.idleAtMicros(slots[at + 2], slots[at + 3], windowMicros) <= now) {
        delete(i);
        dropped++;
      }
    }
    return dropped;
  }

  /** Shrinks a table that a sweep left mostly empty. Holds the write lock. */
  void compact() {
    int slotCount = slots.length / SLOT;
    if (slotCount > MIN_SLOTS && size * 8 < slotCount) {
      resize(Math.max(MIN_SLOTS, Integer.highestOneBit(Math.max(1, size) * 2) * 2));
    }
  }

  /** Forgets every identity; returns how many there were. Holds the write lock. */
  int clear() {
    int had = size;
    slots = new long[MIN_SLOTS * SLOT];
    size = 0;
    return had;
  }

  /** Backward-shift deletion (Knuth's algorithm R): no tombstones, probes stay short. */
  private void delete(int hole) {
    int mask = slots.length / SLOT - 1;
    int j = hole;
    while (true) {
      j = (j + 1) & mask;
      if (slots[j * SLOT + 1] == 0) {
        break;
      }
      int k = home(slots[j * SLOT + 1], mask);
      boolean staysPut = hole <= j ? hole < k && k <= j : hole < k || k <= j;
      if (!staysPut) {
        System.arraycopy(slots, j * SLOT, slots, hole * SLOT, SLOT);
        hole = j;
      }
    }
    int at = hole * SLOT;
    slots[at] = 0;
    slots[at + 1] = 0;
    slots[at + 2] = 0;
    slots[at + 3] = 0;
    size--;
  }
}
