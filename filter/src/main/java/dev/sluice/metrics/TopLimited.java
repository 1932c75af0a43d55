package dev.sluice.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The clients a rule denied most, recently: a space-saving sketch (Metwally, Agrawal and El Abbadi)
 * of at most {@code capacity} identities, whatever the number of clients. An identity not followed
 * yet takes the place of the least denied one, inheriting its count as a possible overcount; so any
 * client denied more than 1/capacity of the time is certain to be listed, with a count that errs
 * high by at most its {@link LimitedClient#maxOvercount()}.
 *
 * <p>Only denials feed it, so the allowed path pays nothing. A flood of denials is when it is hot:
 * each denial takes the lock for a map lookup, and an identity new to the sketch for a scan of its
 * {@code capacity} entries (docs/performance.md measures it). Counts start over every {@link
 * #INTERVAL_MICROS}, the last interval's kept beside them: the list shows who is denied now, not
 * who was yesterday.
 */
final class TopLimited {
  static final long INTERVAL_MICROS = 60_000_000;

  private final int capacity;
  private final LongSupplier micros;
  private Map<String, Tally> current;
  private Map<String, Tally> previous = Collections.emptyMap();
  private long currentSince;

  TopLimited(int capacity, LongSupplier micros) {
    this.capacity = capacity;
    this.micros = micros;
    this.current = new HashMap<>(capacity * 2);
    this.currentSince = micros.getAsLong();
  }

  int capacity() {
    return capacity;
  }

  synchronized void record(String identity) {
    rotate();
    Tally tally = current.get(identity);
    if (tally != null) {
      tally.count++;
    } else if (current.size() < capacity) {
      current.put(identity, new Tally(identity, 1, 0));
    } else {
      Tally least = null;
      for (Tally t : current.values()) {
        if (least == null || t.count < least.count) {
          least = t;
        }
      }
      current.remove(least.identity);
      current.put(identity, new Tally(identity, least.count + 1, least.count));
    }
  }

  /**
   * The most denied clients of this interval and the last, most first, each named by {@code raw}.
   */
  synchronized List<LimitedClient> top(boolean raw) {
    rotate();
    Map<String, Tally> both = new HashMap<>(previous.size() + current.size());
    for (Map<String, Tally> sketch : Arrays.asList(previous, current)) {
      for (Tally t : sketch.values()) {
        Tally earlier = both.get(t.identity);
        both.put(
            t.identity,
            earlier == null
                ? new Tally(t.identity, t.count, t.overcount)
                : new Tally(t.identity, earlier.count + t.count, earlier.overcount + t.overcount));
      }
    }
    List<Tally> sorted = new ArrayList<>(both.values());
    sorted.sort((a, b) -> Long.compare(b.count, a.count));
    List<LimitedClient> top = new ArrayList<>(Math.min(capacity, sorted.size()));
    for (Tally t : sorted.subList(0, Math.min(capacity, sorted.size()))) {
      top.add(
          new LimitedClient(
              raw ? t.identity : LimitedClient.hashed(t.identity), t.count, t.overcount));
    }
    return top;
  }

  private void rotate() {
    long now = micros.getAsLong();
    if (now - currentSince >= INTERVAL_MICROS) {
      previous =
          now - currentSince < 2 * INTERVAL_MICROS
              ? current
              : Collections.<String, Tally>emptyMap();
      current = new HashMap<>(capacity * 2);
      currentSince = now;
    }
  }

  private static final class Tally {
    final String identity;
    long count;
    final long overcount;

    Tally(String identity, long count, long overcount) {
      this.identity = identity;
      this.count = count;
      this.overcount = overcount;
    }
  }
}
