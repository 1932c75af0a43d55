package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.store.Permit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What Redis last said was left of a window, per key: so that when a master fails part way through
 * a window, this JVM's local share of that window starts from what the fleet had already used
 * rather than from nothing ({@link LocalShare}). Fixed and sliding windows only: a bucket's local
 * share keeps its rate.
 *
 * <p>Written on every answer Redis allows, so it is made to cost a successful decision a hash and
 * one ordered store, no clock read and no allocation: a direct-mapped table of {@value #SLOTS}
 * longs (512 KB, allocated once), each packing the window the answer counted in (its index by Redis
 * TIME, modulo 2³², which acquire.lua returns as the take), a 12-bit fingerprint of the key and the
 * remaining count (at most {@value #SATURATED}, beyond which it says nothing). A key whose slot
 * another key took since, or whose fingerprint another key shares, reads another key's answer: the
 * local share only ever takes the smaller of its share and what an answer leaves, so such a mistake
 * can deny locally, never admit more than the share.
 */
final class LastAnswers {
  static final int SLOTS = 1 << 16;

  /** The most a slot holds as remaining; a remaining this large says nothing. */
  static final long SATURATED = (1L << 20) - 1;

  /** What {@link #remaining} answers for a key without an answer of the window asked about. */
  static final long UNKNOWN = -1;

  private final AtomicLongArray slots = new AtomicLongArray(SLOTS);

  /** Keeps what Redis answered for {@code call}, allowed. */
  void allowed(IdentityCall call) {
    for (int i = 0; i < call.permits.size(); i++) {
      Permit permit = call.permits.get(i);
      if (permit.counters().algorithm() == Algorithm.TOKEN_BUCKET) {
        continue;
      }
      answered(call.keys.get(i), call.take(i), permit.verdict().remaining());
    }
  }

  /**
   * Keeps that Redis left {@code remaining} of window {@code window} for {@code key} once it had
   * counted what it allowed (a fixed or sliding window's: a lease's grant, or a request).
   */
  void answered(String key, long window, long remaining) {
    int hash = spread(key.hashCode());
    long kept = Math.min(SATURATED, Math.max(0, remaining));
    slots.lazySet(hash & (SLOTS - 1), window << 32 | (long) (hash >>> 20) << 20 | kept);
  }

  /**
   * What Redis last said was left of window {@code window} (an index: time ÷ window length) for
   * {@code key}, or {@link #UNKNOWN} when it said nothing of that window (or too much to keep).
   */
  long remaining(String key, long window) {
    int hash = spread(key.hashCode());
    long slot = slots.get(hash & (SLOTS - 1));
    boolean current = (int) (slot >>> 32) == (int) window;
    boolean same = ((slot >>> 20) & 0xfff) == hash >>> 20;
    long remaining = slot & SATURATED;
    return slot != 0 && current && same && remaining < SATURATED ? remaining : UNKNOWN;
  }

  private static int spread(int h) {
    return (h ^ (h >>> 16)) * 0x9E3779B9;
  }
}
