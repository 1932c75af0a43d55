package dev.sluice.algo;

import static dev.sluice.algo.Meter.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SlidingWindowTest {
  private static final long WINDOW = SECOND;
  private static final long INDEX = 1_751_540_400L;

  private final Meter meter = new Meter(Algorithm.SLIDING_WINDOW, 100, WINDOW);

  /** Puts the meter in window INDEX with the given counts, elapsed micros into it. */
  private Meter with(long prev, long cur, long elapsedMicros) {
    meter.first = INDEX;
    meter.second = prev << 32 | cur;
    return meter.at(INDEX * WINDOW + elapsedMicros);
  }

  @Test
  void designNotesExampleAllowsAtRate79point2() {
    Verdict v = with(82, 30, 400_000).take();
    assertThat(v.allowed()).isTrue();
    // 82 × 0.6 + 31 = 80.2 after counting it: 20 more unit requests fit below 100 right now.
    assertThat(v.remaining()).isEqualTo(20);
    assertThat(meter.second & 0xFFFF_FFFFL).isEqualTo(31);
  }

  @Test
  void designNotesExampleDeniesAtRate100point1() {
    Verdict v = with(82, 55, 450_000).take();
    assertThat(v.allowed()).isFalse();
    assertThat(v.remaining()).isZero();
    assertThat(meter.second & 0xFFFF_FFFFL).as("a denial counts nothing").isEqualTo(55);
  }

  @Test
  void deniesWhenTheRateReachesTheLimitExactly() {
    assertThat(with(0, 99, 0).take().allowed()).isTrue();
    assertThat(meter.take().allowed()).isFalse();
  }

  @Test
  void rolloverMakesTheCurrentCountThePreviousOne() {
    with(10, 60, 900_000).advance(200_000); // 100 ms into the next window
    // rate = 60 × 0.9 + 0 = 54: 46 more fit.
    assertThat(meter.drain()).isEqualTo(46);
  }

  @Test
  void aGapOfMoreThanOneWindowForgetsEverything() {
    with(100, 100, 999_999).advance(WINDOW + 1);
    assertThat(meter.drain()).isEqualTo(100);
  }

  @Test
  void retryAfterIsTheExactFirstMicrosecondThatAdmits() {
    Verdict denied = with(82, 55, 450_000).take();
    long wait = denied.retryAfterMicros();
    assertThat(wait).isPositive().isLessThan(WINDOW);
    meter.advance(wait - 1);
    assertThat(meter.take().allowed()).as("one microsecond early").isFalse();
    meter.advance(1);
    assertThat(meter.take().allowed()).as("on time").isTrue();
  }

  @Test
  void retryAfterReachesIntoTheNextWindowWhenThisOneIsFull() {
    Verdict denied = with(0, 100, 300_000).take();
    // Next window: rate = 100 × (1 − e) < 100 from its first microsecond.
    assertThat(denied.retryAfterMicros()).isEqualTo(700_000 + 1);
    meter.advance(denied.retryAfterMicros());
    assertThat(meter.take().allowed()).isTrue();
  }

  @Test
  void aClientThatWaitsRetryAfterIsAllowed() {
    Meter minute = new Meter(Algorithm.SLIDING_WINDOW, 5, 60 * SECOND).at(7 * 60 * SECOND + 13);
    minute.drain();
    Verdict denied = minute.take();
    assertThat(denied.retryAfterMicros()).isGreaterThan(SECOND);
    minute.waitRetryAfter(denied);
    assertThat(minute.take().allowed()).isTrue();
  }

  @Test
  void costMustFitForEachOfItsUnits() {
    // rate 97: a cost of 3 is allowed (97, 98, 99 are each below 100), a cost of 4 is not.
    assertThat(with(0, 97, 0).take(4).allowed()).isFalse();
    assertThat(meter.take(3).allowed()).isTrue();
  }

  @Test
  void resetIsWhenTheEstimateReachesZero() {
    assertThat(with(0, 0, 250_000).take().resetMicros()).isEqualTo(2 * WINDOW - 250_000);
    meter.second = 5L << 32; // only previous-window requests left
    Verdict v = new Verdict();
    Algorithm.SLIDING_WINDOW.evaluate(meter.first, meter.second, meter.now, meter.quota, 200, v);
    assertThat(v.resetMicros()).isEqualTo(WINDOW - 250_000);
  }

  @Test
  void isIdleTwoWindowsAfterItsLastCount() {
    with(1, 1, 0);
    assertThat(Algorithm.SLIDING_WINDOW.idleAtMicros(meter.first, meter.second, WINDOW))
        .isEqualTo((INDEX + 2) * WINDOW);
  }
}
