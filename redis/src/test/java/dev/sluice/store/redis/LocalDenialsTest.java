package dev.sluice.store.redis;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import org.junit.jupiter.api.Test;

/**
 * A denial Redis gave is repeated locally until its retry-after, for requests Redis would deny
 * whatever it holds: the same request, a costlier one, or one under a stricter quota of the same
 * key (a lower tier). Never for a more generous one.
 */
class LocalDenialsTest {
  private static final long MINUTE = 60 * SECOND;
  private static final String KEY = "rl{abc}defghij";
  private static final Quota FREE = Quota.of(2, MINUTE, 2);
  private static final Quota PRO = Quota.of(100, MINUTE, 100);

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final LocalDenials denials = new LocalDenials(clock);
  private final MemoryStore local = new MemoryStore(clock, 100, 0);

  private Permit permit(Algorithm algorithm, Quota quota, long cost) {
    return new Permit(
        new RedisCounters(local.counters("r", algorithm, MINUTE)), "ip=10.0.0.1", quota, cost);
  }

  /** Remembers that Redis denied {@code quota} and {@code cost}, retry in 10 s, 2 left. */
  private void deniedByRedis(Algorithm algorithm, Quota quota, long cost) {
    Permit denied = permit(algorithm, quota, cost);
    denied.verdict().set(false, 2, 30 * SECOND, 10 * SECOND);
    denials.remember(KEY, denied);
  }

  private boolean denies(Algorithm algorithm, Quota quota, long cost) {
    return denials.deny(KEY, permit(algorithm, quota, cost));
  }

  @Test
  void repeatsTheDenialUntilItsRetryAfter() {
    deniedByRedis(Algorithm.FIXED_WINDOW, FREE, 1);
    Permit again = permit(Algorithm.FIXED_WINDOW, FREE, 1);
    clock.advance(4 * SECOND);

    assertThat(denials.deny(KEY, again)).isTrue();
    assertThat(again.verdict().allowed()).isFalse();
    assertThat(again.verdict().remaining()).isEqualTo(2);
    assertThat(again.verdict().resetMicros()).isEqualTo(26 * SECOND);
    assertThat(again.verdict().retryAfterMicros()).isEqualTo(6 * SECOND);
    clock.advance(6 * SECOND);
    assertThat(denies(Algorithm.FIXED_WINDOW, FREE, 1)).as("Redis may allow it now").isFalse();
  }

  @Test
  void asksRedisForACheaperRequest() {
    deniedByRedis(Algorithm.SLIDING_WINDOW, PRO, 3);

    assertThat(denies(Algorithm.SLIDING_WINDOW, PRO, 2)).isFalse();
    assertThat(denies(Algorithm.SLIDING_WINDOW, PRO, 3)).isTrue();
    assertThat(denies(Algorithm.SLIDING_WINDOW, PRO, 4)).isTrue();
  }

  @Test
  void aDenialUnderALowerTierIsNoneUnderAHigherOne() {
    for (Algorithm algorithm : Algorithm.values()) {
      deniedByRedis(algorithm, FREE, 1);
      assertThat(denies(algorithm, PRO, 1)).as("%s", algorithm).isFalse();
    }
  }

  @Test
  void aDenialUnderAHigherTierDeniesALowerOneWithNothingLeft() {
    for (Algorithm algorithm : Algorithm.values()) {
      deniedByRedis(algorithm, PRO, 1);
      Permit free = permit(algorithm, FREE, 1);
      assertThat(denials.deny(KEY, free)).as("%s", algorithm).isTrue();
      assertThat(free.verdict().remaining()).as("the pro remaining is not the free one").isZero();
    }
  }

  /**
   * Windows count permits: a denial at limit 10 and cost 4 (more than 6 taken) also denies limit 8
   * and cost 3 (denied once more than 5 are taken), though neither is the same. A bucket counts
   * backlog: a bigger burst at the same rate leaves room for more of it.
   */
  @Test
  void comparesWhatEachRequestLeavesRoomFor() {
    deniedByRedis(Algorithm.FIXED_WINDOW, Quota.of(10, MINUTE, 10), 4);
    assertThat(denies(Algorithm.FIXED_WINDOW, Quota.of(8, MINUTE, 8), 3)).isTrue();
    assertThat(denies(Algorithm.FIXED_WINDOW, Quota.of(8, MINUTE, 8), 1)).isFalse();

    deniedByRedis(Algorithm.TOKEN_BUCKET, Quota.of(10, MINUTE, 10), 1);
    assertThat(denies(Algorithm.TOKEN_BUCKET, Quota.of(10, MINUTE, 20), 1)).isFalse();
    assertThat(denies(Algorithm.TOKEN_BUCKET, Quota.of(10, MINUTE, 5), 1)).isTrue();
  }
}
