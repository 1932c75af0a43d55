package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import java.util.Collection;
import java.util.List;

/** A store that hands everything to another: tests override what they watch or break. */
public class ForwardingStore implements Store {
  private final Store store;

  public ForwardingStore(Store store) {
    this.store = store;
  }

  @Override
  public Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
    return store.counters(ruleId, algorithm, windowMicros);
  }

  @Override
  public void acquire(List<Permit> permits) {
    store.acquire(permits);
  }

  @Override
  public void refund(List<Permit> permits) {
    store.refund(permits);
  }

  @Override
  public void peek(List<Permit> permits) {
    store.peek(permits);
  }

  @Override
  public void retainOnly(Collection<? extends Counters> live) {
    store.retainOnly(live);
  }

  @Override
  public void close() {
    store.close();
  }
}
