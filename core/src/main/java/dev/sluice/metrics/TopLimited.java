package dev.sluice.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The clients a rule denied most, recently, in space that does not grow with the number of clients:
 * {@link Sketch}es of {@code capacity} identities each, merged when read. A client denied more than
 * once in every {@code capacity} denials is always followed, and every count errs high by at most
 * its {@link LimitedClient#getMaxOvercount()}, never low.
 *
 * <p>Only denials feed it, so the allowed path pays nothing; a flood of denials is when it is hot.
 * So threads record into stripes, chosen by thread, each with its own lock (memory stays
 * O(capacity) per stripe), and a stripe reads the clock only every {@value #CLOCK_EVERY} records
 * (reads always do). Counts start over every {@link #INTERVAL_MICROS}, the last interval's kept
 * beside them: the list shows who is denied now, not who was yesterday. After a quiet spell, the
 * first few denials of a stripe may be counted in the interval that ended, and dropped with it.
 */
final class TopLimited {
  static final long INTERVAL_MICROS = 60_000_000;

  /** Twice the cores, rounded up to a power of two, 4 to 64: few threads share a stripe's lock. */
  static final int STRIPES =
      Math.max(
          4,
          Math.min(64, Integer.highestOneBit(4 * Runtime.getRuntime().availableProcessors() - 1)));

  private static final int CLOCK_EVERY = 32;

  private final int capacity;
  private final LongSupplier micros;
  private final Stripe[] stripes = new Stripe[STRIPES];

  TopLimited(int capacity, LongSupplier micros) {
    this.capacity = capacity;
    this.micros = micros;
    long now = micros.getAsLong();
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Stripe(capacity, now);
    }
  }

  int capacity() {
    return capacity;
  }

  void record(String identity) {
    Stripe stripe = stripes[stripeOf(Thread.currentThread())];
    synchronized (stripe) {
      if (++stripe.records % CLOCK_EVERY == 0) {
        stripe.rotate(micros.getAsLong());
      }
      stripe.current.add(identity);
    }
  }

  /** The stripe {@code thread} records into: threads of consecutive ids record apart. */
  static int stripeOf(Thread thread) {
    return (int) thread.getId() & (STRIPES - 1);
  }

  /**
   * The most denied clients of this interval and the last, most first, each named as it is ({@code
   * raw}) or hashed. Merged as mergeable summaries are: a client a full sketch does not follow is
   * counted there as the most it may have had there, as both count and overcount.
   */
  List<LimitedClient> top(boolean raw) {
    long now = micros.getAsLong();
    List<Sketch> sketches = new ArrayList<>(2 * STRIPES);
    for (Stripe stripe : stripes) {
      synchronized (stripe) {
        stripe.rotate(now);
        sketches.add(stripe.previous.copy());
        sketches.add(stripe.current.copy());
      }
    }
    Map<String, long[]> merged = new HashMap<>();
    for (Sketch sketch : sketches) {
      for (int i = 0; i < sketch.size(); i++) {
        merged.put(sketch.identity(i), new long[2]);
      }
    }
    for (Sketch sketch : sketches) {
      Map<String, Integer> followed = new HashMap<>();
      for (int i = 0; i < sketch.size(); i++) {
        followed.put(sketch.identity(i), i);
      }
      long unfollowed = sketch.unfollowedAtMost();
      for (Map.Entry<String, long[]> client : merged.entrySet()) {
        Integer i = followed.get(client.getKey());
        client.getValue()[0] += i == null ? unfollowed : sketch.count(i);
        client.getValue()[1] += i == null ? unfollowed : sketch.overcount(i);
      }
    }
    List<Map.Entry<String, long[]>> sorted = new ArrayList<>(merged.entrySet());
    sorted.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
    List<LimitedClient> top = new ArrayList<>();
    for (Map.Entry<String, long[]> client : sorted.subList(0, Math.min(capacity, sorted.size()))) {
      String name = raw ? client.getKey() : LimitedClient.hashed(client.getKey());
      top.add(new LimitedClient(name, client.getValue()[0], client.getValue()[1]));
    }
    return top;
  }

  private static final class Stripe {
    final int capacity;
    Sketch current;
    Sketch previous;
    long currentSince;
    int records;

    Stripe(int capacity, long now) {
      this.capacity = capacity;
      this.current = new Sketch(capacity);
      this.previous = new Sketch(capacity);
      this.currentSince = now;
    }

    /** Starts a new interval if this one is over; one over for two intervals is dropped too. */
    void rotate(long now) {
      if (now - currentSince >= INTERVAL_MICROS) {
        previous = now - currentSince < 2 * INTERVAL_MICROS ? current : new Sketch(capacity);
        current = new Sketch(capacity);
        currentSince = now;
      }
    }
  }
}
