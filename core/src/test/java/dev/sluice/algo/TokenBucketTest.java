package dev.sluice.algo;

import static dev.sluice.algo.Meter.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenBucketTest {
  private static final long MINUTE = 60 * SECOND;

  @Test
  void aFullBucketGivesItsBurstThenRefillsAtLimitPerWindow() {
    Meter login = new Meter(Algorithm.TOKEN_BUCKET, 5, MINUTE).at(1_000 * SECOND);
    assertThat(login.take().remaining()).isEqualTo(4);
    assertThat(login.drain()).isEqualTo(4);
    Verdict denied = login.take();
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.retryAfterMicros()).isEqualTo(12 * SECOND);
    assertThat(denied.resetMicros()).as("time until full").isEqualTo(MINUTE);
  }

  @Test
  void refillIsFractionalAndLazy() {
    Meter api = new Meter(Algorithm.TOKEN_BUCKET, 10, SECOND).at(5 * SECOND);
    api.drain();
    api.advance(150_000); // 1.5 tokens
    assertThat(api.take().allowed()).isTrue();
    assertThat(api.take().allowed()).isFalse();
    api.advance(50_000); // the half token left plus another half
    assertThat(api.take().allowed()).isTrue();
  }

  @Test
  void aLongIdleNeverOverfillsTheBucket() {
    Meter api = new Meter(Algorithm.TOKEN_BUCKET, 10, SECOND, 3).at(SECOND);
    api.drain();
    api.advance(3_600 * SECOND);
    assertThat(api.drain()).isEqualTo(3);
  }

  @Test
  void burstCanDifferFromTheLimit() {
    Meter api = new Meter(Algorithm.TOKEN_BUCKET, 60, MINUTE, 20).at(SECOND);
    assertThat(api.drain()).isEqualTo(20);
    api.advance(10 * SECOND);
    assertThat(api.drain()).isEqualTo(10);
  }

  @Test
  void aClientThatWaitsRetryAfterIsAllowed() {
    Meter odd = new Meter(Algorithm.TOKEN_BUCKET, 7, MINUTE).at(3 * SECOND + 77);
    odd.drain();
    Verdict denied = odd.take();
    odd.waitRetryAfter(denied);
    assertThat(odd.take().allowed()).isTrue();
  }

  @Test
  void retryAfterIsExactToTheMicrosecond() {
    Meter odd = new Meter(Algorithm.TOKEN_BUCKET, 3, SECOND).at(SECOND);
    odd.drain();
    Verdict denied = odd.take();
    odd.advance(denied.retryAfterMicros() - 1);
    assertThat(odd.take().allowed()).isFalse();
    odd.advance(1);
    assertThat(odd.take().allowed()).isTrue();
  }

  @Test
  void neverRefillsFasterThanTheLimit() {
    // 3 per second does not divide a second evenly: the emission interval rounds up, not down.
    Meter odd = new Meter(Algorithm.TOKEN_BUCKET, 3, SECOND).at(SECOND);
    int allowed = 0;
    for (int i = 0; i < 10_000; i++) {
      allowed += odd.take().allowed() ? 1 : 0;
      odd.advance(1_000);
    }
    assertThat(allowed).isLessThanOrEqualTo(3 + 3 * 10);
  }

  @Test
  void costTakesSeveralTokensOrNone() {
    Meter api = new Meter(Algorithm.TOKEN_BUCKET, 10, SECOND).at(SECOND);
    assertThat(api.take(8).remaining()).isEqualTo(2);
    assertThat(api.take(3).allowed()).isFalse();
    assertThat(api.take(2).allowed()).isTrue();
  }

  @Test
  void isIdleWhenTheBucketIsFullAgain() {
    Meter api = new Meter(Algorithm.TOKEN_BUCKET, 10, SECOND).at(SECOND);
    api.take(4);
    assertThat(Algorithm.TOKEN_BUCKET.idleAtMicros(api.first, api.second, SECOND))
        .isEqualTo(SECOND + 400_000);
  }

  @Test
  void rejectsAbsurdQuotas() {
    assertThatThrownBy(() -> Quota.of(0, SECOND, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Quota.of(1, 365 * 86_400 * SECOND, 1_000_000_000))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
