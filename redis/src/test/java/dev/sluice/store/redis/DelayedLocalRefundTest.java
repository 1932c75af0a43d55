package dev.sluice.store.redis;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Redis down, a delayed rule decided on this JVM's share (5/s in a fleet of two: one slot every
 * 500 ms): a request that will not wait for its slot (no place to wait, its wait interrupted) gives
 * the slot back to the local share, as it would to Redis.
 */
class DelayedLocalRefundTest {
  private static final long MS = 1_000;
  private static final Quota PAY = Quota.of(5, SECOND, 5).delayed(0, 1, 2 * SECOND);

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final RedisStore store =
      new RedisStore(new FailingRedis(), "failing", "p", 2, clock, 1_000, ScriptTime.REDIS, 1_000);
  private final Counters pay = store.counters("pay", Algorithm.TOKEN_BUCKET, SECOND);

  @AfterEach
  void close() {
    store.close();
  }

  private Permit take() {
    Permit permit = new Permit(pay, "ip=1", PAY, 1, OnError.FAIL_OPEN);
    store.acquire(Collections.singletonList(permit));
    assertThat(permit.decidedLocally()).isTrue();
    assertThat(permit.verdict().allowed()).isTrue();
    return permit;
  }

  private static long waitMillis(Permit permit) {
    return permit.decidedUnder().waitMicros(permit.verdict()) / MS;
  }

  @Test
  void aSlotTakenFromTheLocalShareIsGivenBackThere() {
    assertThat(waitMillis(take())).isZero();
    assertThat(waitMillis(take())).isEqualTo(500);
    Permit turnedAway = take();
    assertThat(waitMillis(turnedAway)).isEqualTo(1_000);
    store.refund(Collections.singletonList(turnedAway));
    assertThat(waitMillis(take())).as("the slot given back is taken again").isEqualTo(1_000);
  }
}
