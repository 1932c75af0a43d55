package dev.sluice.agent.gate;

import dev.sluice.http.Enforcer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Loading that lasts until the test releases it, then makes {@link #enforcer} or fails. */
final class HeldLoader implements RulesLoading.Loader {
  final CountDownLatch release = new CountDownLatch(1);
  final AtomicInteger serving = new AtomicInteger();
  final AtomicInteger closed = new AtomicInteger();
  final CountDownLatch firstClose = new CountDownLatch(1);
  private final Enforcer enforcer;
  volatile RuntimeException failure;

  /** What decides a request that cannot wait. */
  volatile Enforcer fallback;

  HeldLoader(Enforcer enforcer) {
    this.enforcer = enforcer;
  }

  @Override
  public void beforeLoading() {}

  @Override
  public Enforcer load() {
    try {
      release.await(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    if (failure != null) {
      throw failure;
    }
    return enforcer;
  }

  @Override
  public void serving() {
    serving.incrementAndGet();
  }

  @Override
  public Enforcer fallback() {
    return fallback;
  }

  @Override
  public void close() {
    closed.incrementAndGet();
    firstClose.countDown();
  }
}
