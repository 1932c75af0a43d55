package dev.sluice.store;

import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Caps the identities one rule tracks, so random identities cannot exhaust the heap. Each rule has
 * its own: junk API keys filling one rule must not stop new clients of another rule.
 */
final class KeyBudget {
  private static final Logger LOG = Logger.getLogger("dev.sluice.store");

  private final String ruleId;
  private final long max;
  private final AtomicLong used = new AtomicLong();
  private volatile boolean exhausted;

  KeyBudget(String ruleId, long max) {
    if (max <= 0) {
      throw new IllegalArgumentException("max keys must be positive: " + max);
    }
    this.ruleId = ruleId;
    this.max = max;
  }

  boolean tryTake() {
    if (used.incrementAndGet() <= max) {
      return true;
    }
    used.decrementAndGet();
    if (!exhausted) {
      exhausted = true;
      LOG.warning(
          "Sluice rule "
              + ruleId
              + " tracks "
              + max
              + " identities, its most: new ones now share one counter until idle ones expire."
              + " Raise store.max_keys if this is real traffic.");
    }
    return false;
  }

  /** Whether a new identity would find no key left; unlike {@link #tryTake}, takes none. */
  boolean spent() {
    return used.get() >= max;
  }

  void give(long n) {
    used.addAndGet(-n);
  }

  long used() {
    return used.get();
  }

  /** Called after a sweep: reports once when a tenth of the budget is free again. */
  void checkRecovered() {
    if (exhausted && used.get() < max - max / 10) {
      exhausted = false;
      LOG.info(
          "Sluice rule "
              + ruleId
              + " has room again: "
              + used.get()
              + " of "
              + max
              + " identities tracked.");
    }
  }
}
