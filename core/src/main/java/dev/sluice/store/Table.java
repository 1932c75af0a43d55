package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The counts of one rule: identities spread over {@value #SEGMENTS} {@link Segment}s by the top
 * bits of their hash, each with its own lock, so requests for different clients rarely meet. When
 * the rule's key budget is spent, new identities share the overflow segment's one slot: they stay
 * limited, together, rather than unlimited or evicting someone else's live count.
 *
 * <p>A segment is made when the first identity whose hash falls in it is looked up: a rule that few
 * clients reach (most of a file of many rules) costs under a kilobyte, not 64 segments' 22 KB.
 * The made segment is published by a compare-and-set, so every thread finds the same one; a lookup
 * of a made segment is one volatile read of an array element (a plain load on x86).
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
  private final AtomicReferenceArray<Segment> segments = new AtomicReferenceArray<>(SEGMENTS);
  final Segment overflow = new Segment(SEGMENTS);
  volatile boolean retired;

  Table(String ruleId, Algorithm algorithm, long windowMicros, int ordinal, long maxKeys) {
    this.ruleId = ruleId;
    this.algorithm = algorithm;
    this.windowMicros = windowMicros;
    this.ordinal = ordinal;
    this.budget = new KeyBudget(ruleId, maxKeys);
    overflow.insert(OVERFLOW_HI, OVERFLOW_LO);
  }

  Segment segmentOf(long hi) {
    int index = (int) (hi >>> 58);
    Segment segment = segments.get(index);
    return segment != null ? segment : made(index);
  }

  /** The segment at {@code index}, made now unless another thread just made it. */
  private Segment made(int index) {
    Segment fresh = new Segment(index);
    return segments.compareAndSet(index, null, fresh) ? fresh : segments.get(index);
  }

  /** The segments made so far: the only ones that can hold an identity. */
  List<Segment> madeSegments() {
    List<Segment> made = new ArrayList<>();
    for (int i = 0; i < SEGMENTS; i++) {
      Segment segment = segments.get(i);
      if (segment != null) {
        made.add(segment);
      }
    }
    return made;
  }

  /** Drops every identity that is idle at {@code now}, giving its key back at once. */
  void sweep(long now) {
    for (Segment segment : madeSegments()) {
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
    for (Segment segment : madeSegments()) {
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
