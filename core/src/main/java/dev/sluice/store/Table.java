package dev.sluice.store;

import dev.sluice.algo.Algorithm;

/**
 * The counts of one rule: identities spread over {@value #SEGMENTS} {@link Segment}s by the top
 * bits of their hash, each with its own lock, so requests for different clients rarely meet. When
 * the rule's key budget is spent, new identities share the overflow segment's one slot: they stay
 * limited, together, rather than unlimited or evicting someone else's live count.
 */
final class Table implements Counters {
  static final int SEGMENTS = 64;

  /** The one identity of the overflow segment. */
  static final long OVERFLOW_HI = -1;

  static final long OVERFLOW_LO = -1;

  /** Slots a sweep looks at per lock hold, so a sweep never stalls requests for long. */
  private static final int SWEEP_CHUNK = 4096;

  private final String ruleId;
  private final Algorithm algorithm;
  private final long windowMicros;

  /** Lock order across tables: a request locks its segments by ascending (ordinal, index). */
  final int ordinal;

  final KeyBudget budget;
  final Segment[] segments = new Segment[SEGMENTS];
  final Segment overflow = new Segment(SEGMENTS);
  volatile boolean retired;

  Table(String ruleId, Algorithm algorithm, long windowMicros, int ordinal, long maxKeys) {
    this.ruleId = ruleId;
    this.algorithm = algorithm;
    this.windowMicros = windowMicros;
    this.ordinal = ordinal;
    this.budget = new KeyBudget(ruleId, maxKeys);
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment(i);
    }
    overflow.insert(OVERFLOW_HI, OVERFLOW_LO);
  }

  Segment segmentOf(long hi) {
    return segments[(int) (hi >>> 58)];
  }

  /** Drops every identity that is idle at {@code now}, giving its key back at once. */
  void sweep(long now) {
    for (Segment segment : segments) {
      for (int from = 0; ; from += SWEEP_CHUNK) {
        long stamp = segment.lockForWrite();
        try {
          if (from >= segment.slots.length / Segment.SLOT) {
            segment.compact();
            break;
          }
          budget.give(segment.sweep(from, SWEEP_CHUNK, now, algorithm, windowMicros));
        } finally {
          segment.lock.unlockWrite(stamp);
        }
      }
    }
    budget.checkRecovered();
  }

  /** Forgets every identity: the rule is gone. Later requests for it share the overflow slot. */
  void retire() {
    retired = true;
    for (Segment segment : segments) {
      long stamp = segment.lockForWrite();
      try {
        budget.give(segment.clear());
      } finally {
        segment.lock.unlockWrite(stamp);
      }
    }
  }

  @Override
  public String ruleId() {
    return ruleId;
  }

  @Override
  public Algorithm algorithm() {
    return algorithm;
  }

  @Override
  public long windowMicros() {
    return windowMicros;
  }

  @Override
  public String toString() {
    return ruleId + "/" + algorithm + "/" + windowMicros + "µs";
  }
}
