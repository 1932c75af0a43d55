package dev.sluice.store.redis;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A delayed rule's local share, Redis down, in a fleet of two: 5/s is 2/s here, one slot every 500
 * ms, and the requests over it wait for their slot, at most max_wait, as they would on Redis.
 */
class DelayedLocalShareTest {
  private static final long MS = 1_000;

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final LocalShare share =
      new LocalShare(
          new MemoryStore(clock, 1_000, 0),
          new Fleet("p", 2, 1),
          new LocalLedger(clock),
          new LastAnswers(),
          clock);
  private final RedisCounters pay =
      new RedisCounters(share.counters("pay", Algorithm.TOKEN_BUCKET, SECOND));

  @AfterEach
  void close() {
    share.close();
  }

  /**
   * The waits of {@code requests} at one instant, as the WaitingRoom would take them; -1: denied.
   */
  private List<Long> waits(Quota quota, int requests) {
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      Permit permit = new Permit(pay, "ip=1", quota, 1, OnError.FAIL_OPEN);
      share.acquire(List.of(permit), List.of(pay.key("p", RedisKey.hash("ip=1"))));
      waits.add(permit.verdict().allowed() ? wait(permit) / MS : -1);
    }
    return waits;
  }

  private static long wait(Permit permit) {
    return permit.decidedUnder().waitMicros(permit.verdict());
  }

  @Test
  void theFirstPassesAtOnceAndTheRestAreSpacedAtTheSharesRateUpToMaxWait() {
    Quota quota = Quota.of(5, SECOND, 5).delayed(0, 1, 2 * SECOND);
    assertThat(waits(quota, 7)).containsExactly(0L, 500L, 1_000L, 1_500L, 2_000L, -1L, -1L);
    clock.advance(2_500 * MS);
    assertThat(waits(quota, 2)).as("each slot used, none given twice").containsExactly(0L, 500L);
  }

  @Test
  void immediateIsSharedToo() {
    Quota quota = Quota.of(5, SECOND, 5).delayed(4, 1, SECOND);
    assertThat(waits(quota, 6))
        .as("4 ÷ 2 pass at once beyond the first, then one slot per 500 ms up to 1 s")
        .containsExactly(0L, 0L, 0L, 500L, 1_000L, -1L);
  }
}
