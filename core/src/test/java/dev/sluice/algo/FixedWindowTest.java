package dev.sluice.algo;

import static dev.sluice.algo.Meter.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FixedWindowTest {
  private final Meter meter = new Meter(Algorithm.FIXED_WINDOW, 3, 60 * SECOND).at(1_020 * SECOND);

  @Test
  void countsDownThenDeniesUntilTheWindowEnds() {
    meter.advance(10 * SECOND);
    assertThat(meter.take().remaining()).isEqualTo(2);
    assertThat(meter.take().remaining()).isEqualTo(1);
    Verdict last = meter.take();
    assertThat(last.allowed()).isTrue();
    assertThat(last.remaining()).isZero();
    assertThat(last.resetMicros()).isEqualTo(50 * SECOND);

    Verdict denied = meter.take();
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.retryAfterMicros()).isEqualTo(50 * SECOND);
    assertThat(denied.remaining()).isZero();
  }

  @Test
  void windowsAreAlignedAndANewOneStartsFromZero() {
    meter.at(1_019 * SECOND + 999_999);
    assertThat(meter.drain()).isEqualTo(3);
    meter.at(1_020 * SECOND);
    assertThat(meter.drain()).isEqualTo(3);
  }

  @Test
  void letsTwiceTheLimitThroughAcrossABoundary() {
    // The known weakness the sliding window exists to fix: 3 at 59.9 s and 3 more at 60 s.
    meter.at(1_079 * SECOND + 900_000);
    int before = meter.drain();
    meter.advance(100_000);
    assertThat(before + meter.drain()).isEqualTo(6);
  }

  @Test
  void aClientThatWaitsRetryAfterIsAllowed() {
    meter.advance(17 * SECOND + 123_456);
    meter.drain();
    Verdict denied = meter.take();
    meter.waitRetryAfter(denied);
    assertThat(meter.take().allowed()).isTrue();
  }

  @Test
  void costTakesSeveralPermitsOrNone() {
    assertThat(meter.take(2).remaining()).isEqualTo(1);
    Verdict tooMuch = meter.take(2);
    assertThat(tooMuch.allowed()).isFalse();
    assertThat(tooMuch.remaining()).isEqualTo(1);
    assertThat(meter.take(1).allowed()).isTrue();
  }

  @Test
  void anUntouchedQuotaResetsInZero() {
    Verdict denied = new Verdict();
    Algorithm.FIXED_WINDOW.evaluate(0, 0, meter.now, meter.quota, 4, denied);
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.resetMicros()).isZero();
  }

  @Test
  void aClockThatStepsBackKeepsTheCount() {
    meter.drain();
    meter.advance(-2 * 60 * SECOND);
    assertThat(meter.take().allowed()).isFalse();
  }

  @Test
  void isIdleOnceItsWindowHasEnded() {
    meter.at(1_000 * SECOND + 5).take();
    assertThat(Algorithm.FIXED_WINDOW.idleAtMicros(meter.first, meter.second, 60 * SECOND))
        .isEqualTo(1_020 * SECOND);
  }
}
