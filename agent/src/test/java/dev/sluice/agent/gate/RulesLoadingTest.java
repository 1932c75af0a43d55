package dev.sluice.agent.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sluice.core.Limiter;
import dev.sluice.http.Enforcer;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.time.Duration;
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
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger closed = new AtomicInteger();
  private final CountDownLatch firstClose = new CountDownLatch(1);
  private final Enforcer enforcer =
      new Enforcer(new Limiter(new MemoryStore(new ManualClock(0), 10, 0)));
  private RuntimeException loadFailure;

  private final RulesLoading loading =
      new RulesLoading(
          new RulesLoading.Loader() {
            @Override
            public void beforeLoading() {}

            @Override
            public Enforcer load() {
              try {
                release.await(1, TimeUnit.MINUTES);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
              if (loadFailure != null) {
                throw loadFailure;
              }
              return enforcer;
            }

            @Override
            public void serving() {}

            @Override
            public void close() {
              closed.incrementAndGet();
              firstClose.countDown();
            }
          },
          nanos::get);

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
    loadFailure = new IllegalStateException("no rules");
    loading.begin();
    release.countDown();

    assertThatThrownBy(loading::awaitLoaded).isSameAs(loadFailure);
    assertTimeoutPreemptively(HUNG, () -> assertThat(loading.forRequest()).isNull());
    assertThat(loading.failure()).isSameAs(loadFailure);
  }

  @Test
  void rulesGivenUpOnAreClosedOnceTheyAreMadeAndNeverServe() throws Throwable {
    loading.begin();
    pastTheDeadline();
    assertThat(loading.awaitLoaded()).as("in force by the deadline").isFalse();

    loading.cancel();
    release.countDown();
    assertThat(firstClose.await(1, TimeUnit.MINUTES)).as("closed by the loading thread").isTrue();

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
}
