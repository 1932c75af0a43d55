package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Verdict;
import dev.sluice.store.Clock;
import dev.sluice.store.Permit;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What Redis last said was left of a window, per key: so that when a master fails part way through
 * a window, this JVM's local share of that window starts from what the fleet had already used
 * rather than from nothing ({@link LocalShare}). Fixed and sliding windows only: a bucket's local
 * share keeps its rate.
 *
 * <p>Written on every answer Redis allows, so it is made to cost a successful decision a hash, a
 * clock read and one store: a direct-mapped table of {@value #SLOTS} longs (512 KB, allocated once),
 * each packing the end of the window by this JVM's clock (milliseconds, rounded up, modulo 2³²), a
 * 12-bit fingerprint of the key and the remaining count (at most {@value #SATURATED}, beyond which
 * it says nothing). A key whose slot another key took since, or whose fingerprint another key
 * shares, reads another key's answer: the local share only ever takes the smaller of its share and
 * what an answer leaves, so such a mistake can deny locally, never admit more than the share.
 */
final class LastAnswers {
  static final int SLOTS = 1 << 16;

  /** The most a slot holds as remaining; a remaining this large says nothing. */
  static final long SATURATED = (1L << 20) - 1;

  /** What {@link #remaining} answers for a key without a current answer. */
  static final long UNKNOWN = -1;

  private final Clock clock;
  private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

  LastAnswers(Clock clock) {
    this.clock = clock;
  }

  /** Keeps what Redis answered for {@code permits}, allowed, under {@code keys}. */
  void allowed(List<Permit> permits, List<String> keys) {
    long now = -1;
    for (int i = 0; i < permits.size(); i++) {
      Permit permit = permits.get(i);
      Algorithm algorithm = permit.counters().algorithm();
      if (algorithm == Algorithm.TOKEN_BUCKET) {
        continue;
      }
      now = now < 0 ? clock.micros() : now;
      Verdict verdict = permit.verdict();
      // A fixed window's reset is its end; a sliding window's, the end of the next one.
      long end =
          now
              + verdict.resetMicros()
              - (algorithm == Algorithm.SLIDING_WINDOW ? permit.quota().windowMicros() : 0);
      int hash = spread(keys.get(i).hashCode());
      long endMillis = (end + 999) / 1000;
      slots.lazySet(
          hash & (SLOTS - 1),
          endMillis << 32
              | (long) (hash >>> 20) << 20
              | Math.min(SATURATED, Math.max(0, verdict.remaining())));
    }
  }

  /**
   * What Redis last said was left of the window in force now for {@code key}, or {@link #UNKNOWN}
   * when it said nothing of this window (or too much to keep).
   */
  long remaining(String key) {
    int hash = spread(key.hashCode());
    long slot = slots.get(hash & (SLOTS - 1));
    long nowMillis = clock.micros() / 1000;
    boolean current = (int) ((slot >>> 32) - nowMillis) > 0;
    boolean same = ((slot >>> 20) & 0xfff) == hash >>> 20;
    long remaining = slot & SATURATED;
    return slot != 0 && current && same && remaining < SATURATED ? remaining : UNKNOWN;
  }

  private static int spread(int h) {
    return (h ^ (h >>> 16)) * 0x9E3779B9;
  }
}
