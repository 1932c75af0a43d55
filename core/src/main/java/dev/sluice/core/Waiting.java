package dev.sluice.core;

import dev.sluice.metrics.RuleCounters;

/**
 * A delayed request waiting for its slot, as the metrics count it: waiting now, then delayed once
 * served. Counted in the rule's counters of the decision, whatever reload comes meanwhile, so the
 * count of requests waiting now always comes back down.
 */
public final class Waiting {
  static final Waiting UNCOUNTED = new Waiting(null);

  /** Null when nothing is counted. */
  private final RuleCounters counters;

  Waiting(RuleCounters counters) {
    this.counters = counters;
    if (counters != null) {
      counters.countWaiting();
    }
  }

  /** The request waited {@code micros} for its slot and is served. */
  public void served(long micros) {
    if (counters != null) {
      counters.countDelayed(micros);
    }
  }

  /** The request stopped waiting before its slot, and is not served. */
  public void left() {
    if (counters != null) {
      counters.countLeftWaiting();
    }
  }
}
