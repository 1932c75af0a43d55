package dev.sluice.metrics;

/**
 * One space-saving summary (Metwally, Agrawal and El Abbadi) of at most {@code capacity}
 * identities: an identity not followed yet takes the place of the least counted one, inheriting its
 * count as a possible overcount. So an identity recorded more than 1/capacity of the time is always
 * followed, and each count errs high by at most its overcount. Flat arrays, searched by hash:
 * recording allocates nothing, and a new identity costs a scan of {@code capacity} counts. Not
 * thread-safe.
 */
final class Sketch {
  private final String[] identities;
  private final int[] hashes;
  private final long[] counts;
  private final long[] overcounts;
  private int size;

  Sketch(int capacity) {
    identities = new String[capacity];
    hashes = new int[capacity];
    counts = new long[capacity];
    overcounts = new long[capacity];
  }

  void add(String identity) {
    int hash = identity.hashCode();
    for (int i = 0; i < size; i++) {
      if (hashes[i] == hash && identities[i].equals(identity)) {
        counts[i]++;
        return;
      }
    }
    int at = size;
    long inherited = 0;
    if (size < identities.length) {
      size++;
    } else {
      at = 0;
      for (int i = 1; i < size; i++) {
        if (counts[i] < counts[at]) {
          at = i;
        }
      }
      inherited = counts[at];
    }
    identities[at] = identity;
    hashes[at] = hash;
    counts[at] = inherited + 1;
    overcounts[at] = inherited;
  }

  int size() {
    return size;
  }

  String identity(int i) {
    return identities[i];
  }

  long count(int i) {
    return counts[i];
  }

  long overcount(int i) {
    return overcounts[i];
  }

  /**
   * The most an identity this summary does not follow may have been recorded: its least count once
   * full (an identity displaced had at most that), else 0.
   */
  long unfollowedAtMost() {
    if (size < identities.length) {
      return 0;
    }
    long least = counts[0];
    for (int i = 1; i < size; i++) {
      least = Math.min(least, counts[i]);
    }
    return least;
  }

  /** A copy, for reading outside the lock of whoever writes this one. */
  Sketch copy() {
    Sketch copy = new Sketch(identities.length);
    System.arraycopy(identities, 0, copy.identities, 0, size);
    System.arraycopy(hashes, 0, copy.hashes, 0, size);
    System.arraycopy(counts, 0, copy.counts, 0, size);
    System.arraycopy(overcounts, 0, copy.overcounts, 0, size);
    copy.size = size;
    return copy;
  }
}
