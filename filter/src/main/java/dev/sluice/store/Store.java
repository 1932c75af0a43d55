package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import java.io.Closeable;
import java.util.Collection;
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
   * Takes every permit, or none: if any verdict denies, no count changes. Each permit's verdict is
   * filled in either way. Permits must name distinct counters.
   */
  void acquire(List<Permit> permits);

  /** Forgets the counters of every rule not in {@code live}. */
  void retainOnly(Collection<? extends Counters> live);

  /** Stops background work. Never throws. */
  @Override
  void close();
}
