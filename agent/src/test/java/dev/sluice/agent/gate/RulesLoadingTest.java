package dev.sluice.agent.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.core.Limiter;
import dev.sluice.http.Enforcer;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RulesLoadingTest {
  /** A request that waits for loading waits for this latch at most: far past any fair wait. */
  private static final Duration HUNG = Duration.ofSeconds(5);

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final List<Long> waits = new CopyOnWriteArrayList<>();
  private final HeldLoader loader =
      new HeldLoader(new Enforcer(new Limiter(new MemoryStore(new ManualClock(0), 10, 0))));
  private final CountDownLatch release = loader.release;
  private final AtomicInteger closed = loader.closed;

  private final RulesLoading loading =
      new RulesLoading(
          loader,
          new RulesLoading.Ticker() {
            @Override
            public long nanos() {
              return nanos.get();
            }

            @Override
            public void await(CountDownLatch latch, long nanos) throws InterruptedException {
              waits.add(nanos); // how long the code asked to wait, by its clock
              latch.await(nanos, TimeUnit.NANOSECONDS);
            }
          });

  @AfterEach
  void releaseTheLoader() {
    release.countDown();
  }

  private void pastTheDeadline() {
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(RulesLoading.LOADING_SECONDS) + 1);
  }

  @Test
  void afterTheDeadlineARequestPassesWithoutWaitingForTheLoading() {
    loading.begin();
    pastTheDeadline();

    assertTimeoutPreemptively(HUNG, () -> assertThat(loading.forRequest()).isNull());
    assertTimeoutPreemptively(HUNG, () -> assertThat(loading.forRequest()).isNull());
    assertThat(loading.failure()).as("still loading, not failed").isNull();
  }

  @Test
  void aFailedLoadingIsKnownAtOnce() throws Exception {
    loader.failure = new IllegalStateException("no rules");
    loading.begin();
    release.countDown();

    assertThatThrownBy(loading::awaitLoaded).isSameAs(loader.failure);
    assertTimeoutPreemptively(HUNG, () -> assertThat(loading.forRequest()).isNull());
    assertThat(loading.failure()).isSameAs(loader.failure);
  }

  @Test
  void rulesGivenUpOnAreClosedOnceTheyAreMadeAndNeverServe() throws Throwable {
    loading.begin();
    pastTheDeadline();
    assertThat(loading.awaitLoaded()).as("in force by the deadline").isFalse();

    loading.cancel();
    release.countDown();
    assertThat(loader.firstClose.await(1, TimeUnit.MINUTES))
        .as("closed by the loading thread")
        .isTrue();

    assertThat(closed).hasValue(1);
    assertThat(loading.forRequest()).isNull();
  }

  @Test
  void rulesGivenUpOnAfterTheyAreInForceAreClosedOnce() throws Throwable {
    release.countDown();
    assertThat(loading.awaitLoaded()).isTrue();

    loading.cancel();
    loading.cancel();

    assertThat(closed).hasValue(1);
    assertThat(loading.forRequest()).isNull();
  }

  /** A request holds a server thread: it waits for rules still loading well under a second. */
  @Test
  void aRequestWaitsHalfASecondAtMostForRulesStillLoading() throws Exception {
    loading.begin();

    assertThat(loading.forRequest()).as("still loading").isNull();

    assertThat(waits)
        .singleElement()
        .isEqualTo(TimeUnit.MILLISECONDS.toNanos(RulesLoading.REQUEST_WAIT_MILLIS));
    assertThat(RulesLoading.REQUEST_WAIT_MILLIS).isLessThan(1_000);
  }

  @Test
  void aRequestNeverWaitsPastTheDeadline() throws Exception {
    loading.begin();
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(RulesLoading.LOADING_SECONDS) - 1_000);

    assertThat(loading.forRequest()).isNull();

    assertThat(waits).containsExactly(1_000L);
  }

  /** A gate replaced (attach again) before any request: its thread must not wait for one. */
  @Test
  void rulesGivenUpBeforeAnyRequestEndTheirLoadingThreadAndNeverServe() throws Exception {
    Thread thread = new Thread(loading, "test-loading");
    thread.setDaemon(true);
    thread.start();
    release.countDown();
    long until = System.nanoTime() + HUNG.toNanos();
    while (thread.getState() != Thread.State.WAITING && System.nanoTime() < until) {
      Thread.onSpinWait(); // until the loaded rules wait for their first request
    }
    assertThat(thread.getState()).isEqualTo(Thread.State.WAITING);

    loading.cancel();
    thread.join(HUNG.toMillis());

    assertThat(thread.isAlive()).as("the loading thread still waits").isFalse();
    assertThat(loader.serving).hasValue(0);
    assertThat(closed).hasValue(1);
  }
}
