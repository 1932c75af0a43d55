package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import java.util.Collection;
import java.util.List;

/** A store whose every decision and peek fails, as a bug or an outage would make it. */
public final class BrokenStore implements Store {
  @Override
  public Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
    return new MemoryStore(new ManualClock(0), 1, 0).counters(ruleId, algorithm, windowMicros);
  }

  @Override
  public void acquire(List<Permit> permits) {
    throw new IllegalStateException("broken on purpose");
  }

  @Override
  public void refund(List<Permit> permits) {
    // it never took anything
  }

  @Override
  public void peek(List<Permit> permits) {
    throw new IllegalStateException("broken on purpose");
  }

  @Override
  public void retainOnly(Collection<? extends Counters> live) {}

  @Override
  public void close() {}
}
