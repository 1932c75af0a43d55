package dev.sluice.metrics;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.store.ManualClock;
import org.junit.jupiter.api.Test;

class LatencyWindowTest {
  private static final long MICROSECOND = 1_000;

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final LatencyWindow window = new LatencyWindow(clock::micros);

  @Test
  void quantilesAreReadWithinTheirBucket() {
    for (int micros = 1; micros <= 1_000; micros++) {
      window.record(micros * MICROSECOND);
    }
    Histogram recent = window.recent();
    assertThat(recent.count()).isEqualTo(1_000);
    assertThat(recent.quantileSeconds(0.5)).isCloseTo(500e-6, within(10e-6));
    assertThat(recent.quantileSeconds(0.99)).isCloseTo(990e-6, within(20e-6));
    assertThat(recent.sumSeconds()).isCloseTo(500_500e-6, within(1e-9));
  }

  @Test
  void aQuantileBeyondTheLastBucketReadsAsItsBound() {
    window.record(60 * SECOND * MICROSECOND);
    assertThat(window.recent().quantileSeconds(0.99)).isEqualTo(10.0);
  }

  @Test
  void nothingCountedReadsAsZero() {
    assertThat(window.recent().quantileSeconds(0.5)).isZero();
    assertThat(window.total().count()).isZero();
  }

  @Test
  void theRecentWindowForgetsAfterAMinuteWhileTheTotalKeepsEverything() {
    window.record(100 * MICROSECOND);
    clock.advanceSeconds(30);
    window.record(200 * MICROSECOND);
    assertThat(window.recent().count()).isEqualTo(2);

    clock.advanceSeconds(30);
    assertThat(window.recent().count()).as("the first is a minute old").isEqualTo(1);
    clock.advanceSeconds(30);
    assertThat(window.recent().count()).isZero();
    assertThat(window.total().count()).isEqualTo(2);
  }

  @Test
  void aSliceReusedAMinuteLaterStartsOver() {
    for (int i = 0; i < 5; i++) {
      window.record(100 * MICROSECOND);
    }
    clock.advanceSeconds(LatencyWindow.SLICES);
    window.record(3_000 * MICROSECOND);
    Histogram recent = window.recent();
    assertThat(recent.count()).isEqualTo(1);
    assertThat(recent.quantileSeconds(0.5)).isCloseTo(3e-3, within(0.5e-3));
  }

  @Test
  void countsAtABoundAreExact() {
    window.record(250 * MICROSECOND);
    window.record(251 * MICROSECOND);
    window.record(1_000 * MICROSECOND);
    Histogram total = window.total();
    assertThat(total.countAtMost(250 * MICROSECOND)).as("a bound is inclusive").isEqualTo(1);
    assertThat(total.countAtMost(500 * MICROSECOND)).isEqualTo(2);
    assertThat(total.countAtMost(1_000 * MICROSECOND)).isEqualTo(3);
  }
}
