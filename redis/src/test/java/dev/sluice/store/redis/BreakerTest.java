package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.store.ManualClock;
import dev.sluice.store.RulesInForce;
import dev.sluice.store.redis.Breaker.Pass;
import org.junit.jupiter.api.Test;

class BreakerTest {
  private static final long MILLI = 1_000;
  private final ManualClock clock = new ManualClock(1_000_000_000);
  private final Breaker breaker = new Breaker(clock, "test");
  private final RuntimeException timeout = new RuntimeException("timed out");

  @Test
  void opensOnTheThirdFailedRoundTripInARow() {
    breaker.failed(timeout);
    breaker.failed(timeout);
    assertThat(breaker.pass()).isEqualTo(Pass.CALL);
    breaker.answered();
    breaker.failed(timeout);
    breaker.failed(timeout);
    assertThat(breaker.pass()).as("an answer in between: not in a row").isEqualTo(Pass.CALL);
    breaker.failed(timeout);
    assertThat(breaker.isOpen()).isTrue();
    assertThat(breaker.pass()).isEqualTo(Pass.LOCAL);
  }

  @Test
  void aRedisNeverReachedOpensAtOnce() {
    breaker.failed(timeout, Breaker.FAILURES_TO_OPEN);
    assertThat(breaker.pass()).isEqualTo(Pass.LOCAL);
  }

  @Test
  void oneProbeAtATimeAfterThePauseAndItsSuccessCloses() {
    open();
    clock.advance(Breaker.FIRST_PAUSE_MILLIS * MILLI - 1);
    assertThat(breaker.pass()).isEqualTo(Pass.LOCAL);
    clock.advance(1);
    assertThat(breaker.pass()).isEqualTo(Pass.PROBE);
    assertThat(breaker.pass()).as("a second request while the probe runs").isEqualTo(Pass.LOCAL);
    breaker.probeSucceeded(0);
    assertThat(breaker.pass()).isEqualTo(Pass.CALL);
  }

  @Test
  void roundTripsOfAnOpenBreakerNeitherCloseItNorLengthenItsPause() {
    open();
    breaker.answered(); // a call sent before it opened, or part of a handover
    breaker.failed(timeout);
    breaker.failed(timeout);
    assertThat(breaker.isOpen()).isTrue();
    clock.advance(Breaker.FIRST_PAUSE_MILLIS * MILLI);
    assertThat(breaker.pass()).isEqualTo(Pass.PROBE);
  }

  @Test
  void eachFailedProbeDoublesThePauseUpToItsCap() {
    open();
    long pause = Breaker.FIRST_PAUSE_MILLIS;
    for (int i = 0; i < 10; i++) {
      clock.advance(pause * MILLI);
      assertThat(breaker.pass()).as("probe %d", i).isEqualTo(Pass.PROBE);
      breaker.probeFailed();
      pause = Math.min(Breaker.MAX_PAUSE_MILLIS, pause * 2);
      clock.advance(pause * MILLI - 1);
      assertThat(breaker.pass()).isEqualTo(Pass.LOCAL);
      clock.advance(1 - pause * MILLI);
    }
    assertThat(pause).isEqualTo(Breaker.MAX_PAUSE_MILLIS);
    breaker.probeSucceeded(0);
    breaker.failed(timeout, Breaker.FAILURES_TO_OPEN);
    clock.advance(Breaker.FIRST_PAUSE_MILLIS * MILLI);
    assertThat(breaker.pass()).as("closing resets the pause").isEqualTo(Pass.PROBE);
  }

  @Test
  void openingAndClosingAreLoggedOnceEachWithTheRulesVersion() {
    RulesInForce.version("0a1b2c3d4e5f");
    try (LogCapture log = LogCapture.of("dev.sluice.store.redis")) {
      open();
      breaker.failed(timeout);
      breaker.probeSucceeded(2);
      breaker.probeSucceeded(0);
      assertThat(log.messages())
          .containsExactly(
              "Sluice: Redis test is failing (java.lang.RuntimeException: timed out); rules decide"
                  + " locally (fail_open: this JVM's share of each limit; fail_closed: deny) until"
                  + " it answers again (rules version 0a1b2c3d4e5f).",
              "Sluice: Redis test answers again; handed over 2 keys admitted locally; limits are"
                  + " shared again (rules version 0a1b2c3d4e5f).");
    }
  }

  private void open() {
    for (int i = 0; i < Breaker.FAILURES_TO_OPEN; i++) {
      breaker.failed(timeout);
    }
    assertThat(breaker.isOpen()).isTrue();
  }
}
