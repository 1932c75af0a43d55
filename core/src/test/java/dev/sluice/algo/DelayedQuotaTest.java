package dev.sluice.algo;

import static dev.sluice.algo.Meter.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A token bucket as a queue: nginx's limit_req with burst (here max_wait) and delay=N. */
class DelayedQuotaTest {
  private static final long MS = 1_000;
  private static final long NOW = 1_000 * SECOND;

  /** Twenty at once at 5/s with max_wait 2s: slots 200 ms apart up to 2 s, the rest denied. */
  @Test
  void aBurstIsSpacedAtTheRateUpToMaxWaitAndTheRestDenied() {
    Quota quota = Quota.of(5, SECOND, 5).delayed(0, 1, 2 * SECOND);
    long tat = 0;
    List<Long> waits = new ArrayList<>();
    List<Long> retries = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Verdict v = new Verdict();
      Algorithm.TOKEN_BUCKET.evaluate(tat, 0, NOW, quota, 1, v);
      if (v.allowed()) {
        tat = v.nextFirst();
        waits.add(quota.waitMicros(v));
      } else {
        assertThat(quota.waitMicros(v)).isZero();
        retries.add(v.retryAfterMicros());
      }
    }
    List<Long> expected = new ArrayList<>();
    for (long w = 0; w <= 2 * SECOND; w += 200 * MS) {
      expected.add(w);
    }
    assertThat(waits).isEqualTo(expected);
    assertThat(retries).hasSize(9).containsOnly(200 * MS);
  }

  @Test
  void aDeniedRequestRetryingAfterItsRetryAfterIsServedWithinMaxWait() {
    Quota quota = Quota.of(5, SECOND, 5).delayed(0, 1, 2 * SECOND);
    Verdict v = new Verdict();
    long tat = 0;
    for (int i = 0; i < 11; i++) {
      Algorithm.TOKEN_BUCKET.evaluate(tat, 0, NOW, quota, 1, v);
      tat = v.nextFirst();
    }
    Algorithm.TOKEN_BUCKET.evaluate(tat, 0, NOW, quota, 1, v);
    assertThat(v.allowed()).isFalse();
    long later = NOW + v.retryAfterMicros();
    Algorithm.TOKEN_BUCKET.evaluate(tat, 0, later, quota, 1, v);
    assertThat(v.allowed()).isTrue();
    assertThat(quota.waitMicros(v)).isEqualTo(2 * SECOND);
  }

  @Test
  void immediatePassesTheFirstExcessRequestsAtOnce() {
    Quota quota = Quota.of(5, SECOND, 5).delayed(3, 1, SECOND);
    Verdict v = new Verdict();
    long tat = 0;
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Algorithm.TOKEN_BUCKET.evaluate(tat, 0, NOW, quota, 1, v);
      tat = v.nextFirst();
      waits.add(quota.waitMicros(v));
    }
    assertThat(waits).containsExactly(0L, 0L, 0L, 0L, 200 * MS, 400 * MS);
  }

  @Test
  void aQuotaWithoutDelayNeverWaits() {
    Quota quota = Quota.of(5, SECOND, 5);
    Verdict v = new Verdict();
    Algorithm.TOKEN_BUCKET.evaluate(0, 0, NOW, quota, 5, v);
    assertThat(v.allowed()).isTrue();
    assertThat(quota.isDelayed()).isFalse();
    assertThat(quota.waitMicros(v)).isZero();
    assertThat(quota.delayed(0, 1, SECOND).isDelayed()).isTrue();
  }

  /**
   * A window's reset can lie beyond what a bucket of the same quota would call prompt (a sliding
   * window reports the end of its window; the Spring Boot starter's 3 an hour met it): without a
   * delay that is never a wait.
   */
  @Test
  void aWindowsResetIsNeverAWait() {
    Quota quota = Quota.of(3, 3_600 * SECOND, 3);
    Verdict v = new Verdict();
    v.set(true, 2, 2 * 3_600 * SECOND, 0);
    assertThat(quota.waitMicros(v)).isZero();
  }

  @Test
  void negativeValuesAreRefused() {
    assertThatThrownBy(() -> Quota.of(5, SECOND, 5).delayed(-1, 1, SECOND))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
