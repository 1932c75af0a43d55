package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import java.util.Collections;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A probe ends however it fails. The client here never reaches a server: each pipeline it is asked
 * for fails as the test says, which is how a probe meets a failure nobody planned for.
 */
class ProbeTest {
  private static final long MINUTE = 60 * ManualClock.SECOND;
  private static final Quota TEN = Quota.of(10, MINUTE, 10);

  private final ManualClock clock = new ManualClock(10 * MINUTE);
  private final FailingRedis redis = new FailingRedis();
  private final RedisStore store =
      new RedisStore(redis, "failing", "p", 1, clock, 1_000, ScriptTime.REDIS, 1_000);
  private final Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, MINUTE);

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aProbeThatThrowsAnythingEndsAndTheNextPauseBringsAnotherProbe() {
    probesEndHoweverTheyFail(this::take);
  }

  /** A shadow rule's permit probes like any other, and its probe ends however it fails too. */
  @Test
  void aProbeOfAPermitTakenAloneEndsHoweverItFails() {
    Counters trial = store.counters("trial", Algorithm.FIXED_WINDOW, MINUTE);
    probesEndHoweverTheyFail(() -> takeAlone(trial));
  }

  /** Opens the breaker with requests that {@code take} makes, then probes with them. */
  private void probesEndHoweverTheyFail(BooleanSupplier take) {
    for (int i = 0; i < Breaker.FAILURES_TO_OPEN; i++) {
      assertThat(take.getAsBoolean()).as("fail_closed while Redis fails").isFalse();
    }
    int calls = redis.pipelines.get();
    assertThat(take.getAsBoolean()).isFalse();
    assertThat(redis.pipelines.get()).as("the breaker is open: no call").isEqualTo(calls);

    clock.advance(Breaker.FIRST_PAUSE_MILLIS * 1000);
    redis.failure = new LinkageError("a failure nobody expected");
    assertThatThrownBy(take::getAsBoolean).isInstanceOf(LinkageError.class);
    assertThat(redis.pipelines.get()).as("that was the probe").isEqualTo(calls + 1);

    redis.failure = new JedisConnectionException("still down");
    clock.advance(2 * Breaker.FIRST_PAUSE_MILLIS * 1000);
    take.getAsBoolean();
    assertThat(redis.pipelines.get())
        .as("a failed probe waits twice as long, then probes again")
        .isEqualTo(calls + 2);
  }

  private boolean take() {
    Permit permit = new Permit(counters, "ip=1", TEN, 1, OnError.FAIL_CLOSED);
    store.acquire(Collections.singletonList(permit));
    return permit.verdict().allowed();
  }

  /** A request that only a shadow rule counts: one permit taken alone. */
  private boolean takeAlone(Counters trial) {
    Permit alone = new Permit(trial, "ip=2", TEN, 1, OnError.FAIL_CLOSED);
    store.acquire(Collections.<Permit>emptyList(), Collections.singletonList(alone));
    return alone.verdict().allowed();
  }
}
