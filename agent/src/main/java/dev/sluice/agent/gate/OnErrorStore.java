package dev.sluice.agent.gate;

import dev.sluice.algo.Algorithm;
import dev.sluice.store.Counters;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import java.util.Collection;
import java.util.List;

/**
 * A store that can answer nothing yet: every request is decided by its rules' {@code on_error}, as
 * a shared store decides when its server cannot answer. A request that a {@code fail_closed} rule
 * matches is denied (retry after a second), any other passes. Counts nothing, holds nothing: what
 * the agent applies while its rules are still loading, to requests that cannot wait for them.
 */
final class OnErrorStore implements Store {
  private static final long ONE_SECOND = 1_000_000;

  @Override
  public Counters counters(final String ruleId, final Algorithm algorithm, final long window) {
    return new Counters() {
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
        return window;
      }
    };
  }

  @Override
  public void acquire(List<Permit> permits) {
    boolean closed = false;
    for (Permit permit : permits) {
      closed |= permit.onError() == OnError.FAIL_CLOSED;
    }
    for (Permit permit : permits) {
      long limit = permit.quota().limit();
      if (closed) {
        permit.verdict().set(false, 0, ONE_SECOND, ONE_SECOND);
      } else {
        permit.verdict().set(true, limit, permit.quota().windowMicros(), 0);
      }
      permit.markDecidedLocally();
    }
  }

  @Override
  public void peek(List<Permit> permits) {
    throw new IllegalStateException("the rules are still loading");
  }

  @Override
  public void refund(List<Permit> permits) {}

  @Override
  public void retainOnly(Collection<? extends Counters> live) {}

  @Override
  public void close() {}
}
