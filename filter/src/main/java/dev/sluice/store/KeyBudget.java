package dev.sluice.store;

import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/** Caps the number of cells across all tables, so random identities cannot exhaust the heap. */
final class KeyBudget {
  private static final Logger LOG = Logger.getLogger("dev.sluice.store");

  private final long max;
  private final AtomicLong used = new AtomicLong();
  private volatile boolean exhausted;

  KeyBudget(long max) {
    if (max <= 0) {
      throw new IllegalArgumentException("max keys must be positive: " + max);
    }
    this.max = max;
  }

  boolean tryTake() {
    if (used.incrementAndGet() <= max) {
      return true;
    }
    used.decrementAndGet();
    if (!exhausted) {
      exhausted = true;
      LOG.warning("Sluice memory store is full (" + max + " keys): new identities now share one "
          + "counter per rule until idle keys expire. Raise store.max_keys if this is real traffic.");
    }
    return false;
  }

  void give(long n) {
    used.addAndGet(-n);
  }

  long used() {
    return used.get();
  }

  /** Called after a sweep: reports once when there is room again. */
  void checkRecovered() {
    if (exhausted && used.get() < max) {
      exhausted = false;
      LOG.info("Sluice memory store has room again: " + used.get() + " of " + max + " keys in use.");
    }
  }
}
