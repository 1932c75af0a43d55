package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.metrics.StoreStatus;
import java.io.Closeable;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Where counts live: in this JVM ({@link MemoryStore}) or shared by a fleet (Redis). The whole seam
 * is these few methods, and one contract test suite holds every implementation to the same
 * behaviour.
 */
public interface Store extends Closeable {
  /**
   * The counters of a rule. Asking again for the same id, algorithm and window returns counters
   * that continue the same counts, which is how a reload keeps the counters of unchanged rules.
   */
  Counters counters(String ruleId, Algorithm algorithm, long windowMicros);

  /**
   * The counters of a rule decided with {@code consistency}: a shared store may decide a
   * local-first rule's permits from leases; a store in this JVM is exact either way. Changing only
   * the consistency continues the same counts.
   */
  default Counters counters(
      String ruleId, Algorithm algorithm, long windowMicros, Consistency consistency) {
    return counters(ruleId, algorithm, windowMicros);
  }

  /**
   * Takes every permit, or none: if any verdict denies, no count changes. The verdict of every
   * permit is filled in, except that once one permit is denied a store may leave the permits it did
   * not get to undecided (denied, with no retry-after), which no denial it made can be confused
   * with: those have a retry-after of at least a microsecond. Permits must name distinct counters.
   */
  void acquire(List<Permit> permits);

  /**
   * One decision over two kinds of permits: takes every permit of {@code together} or none, as
   * {@link #acquire(List)} does, and each permit of {@code alone} as if it were acquired by itself,
   * whatever the others get (a shadow rule's: counted and reported, never denying the request).
   * Either list may be empty; all permits must name distinct counters. A shared store asks its
   * server for all of them in the same round trip, within the one wait a decision has.
   */
  default void acquire(List<Permit> together, List<Permit> alone) {
    if (!together.isEmpty()) {
      acquire(together);
    }
    for (Permit permit : alone) {
      acquire(Collections.singletonList(permit));
    }
  }

  /**
   * Fills the verdict of every permit with what {@link #acquire} would decide for that permit
   * alone, now, and changes nothing: no count, no expiry, no key for an identity never seen. Each
   * permit is decided on its own, not all or nothing. An answer to an operator's question, not a
   * decision: a shared store asks its server and never decides locally instead.
   *
   * @throws RuntimeException when the store cannot answer (a server unreachable, say)
   */
  void peek(List<Permit> permits);

  /**
   * Gives back, for each token-bucket permit that {@link #acquire} allowed, what of its take has
   * not refilled yet: the slot of a delayed request that will not be served (it found no room to
   * wait, or its wait was interrupted). A take undoes its own part only, however the clock moved
   * since, as {@code refund.lua} does; permits of other algorithms are left as they are. Best
   * effort: a shared store that cannot reach its server gives nothing back. Never throws.
   */
  void refund(List<Permit> permits);

  /** Forgets the counters of every rule not in {@code live}. */
  void retainOnly(Collection<? extends Counters> live);

  /** What this store reports about itself for monitoring; a store in this JVM has little to say. */
  default StoreStatus status() {
    return StoreStatus.MEMORY;
  }

  /** Stops background work. Never throws. */
  @Override
  void close();
}
