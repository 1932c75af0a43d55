package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.RulesInForce;
import dev.sluice.store.redis.Breaker.Pass;
import java.util.List;
import org.junit.jupiter.api.Test;

class BreakerTest {
  private static final long MILLI = 1_000;
  private static final long SECOND = ManualClock.SECOND;
  private final ManualClock clock = new ManualClock(1_000_000_000);
  private final Breaker breaker = new Breaker(clock, "test");
  private final MemoryStore local = new MemoryStore(clock, 10, 0);
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

  /**
   * The clock starts 1,000 s in: a 1 s window and a 5 s one both start there, and the breaker
   * closes 300 ms into them.
   */
  @Test
  void itHoldsTheWindowsItClosedInForTheLocalShareUntilEachEnds() {
    Counters second = local.counters("s", Algorithm.FIXED_WINDOW, SECOND);
    Counters fiveSeconds = local.counters("f", Algorithm.SLIDING_WINDOW, 5 * SECOND);
    List<Permit> both = List.of(permit(second, OnError.FAIL_OPEN), permit(fiveSeconds));
    assertThat(breaker.holds(both)).as("never opened").isFalse();
    open();
    clock.advance(300 * MILLI);
    breaker.probeSucceeded(1);

    assertThat(breaker.holds(List.of(permit(second, OnError.FAIL_OPEN)))).isTrue();
    clock.advance(700 * MILLI - 1);
    assertThat(breaker.holds(List.of(permit(second, OnError.FAIL_OPEN)))).isTrue();
    clock.advance(1);
    assertThat(breaker.holds(List.of(permit(second, OnError.FAIL_OPEN))))
        .as("the next second")
        .isFalse();
    assertThat(breaker.holds(both)).as("one of them still in the window it closed in").isTrue();
    clock.advance(4 * SECOND - 1);
    assertThat(breaker.holds(both)).isTrue();
    clock.advance(1);
    assertThat(breaker.holds(both)).isFalse();
  }

  @Test
  void itHoldsNoRequestAFailClosedRuleDecidesNorABucketNorALongWindow() {
    Counters second = local.counters("s", Algorithm.FIXED_WINDOW, SECOND);
    Counters bucket = local.counters("t", Algorithm.TOKEN_BUCKET, SECOND);
    long longer = Breaker.HOLD_MICROS + SECOND;
    Counters minute = local.counters("m", Algorithm.FIXED_WINDOW, longer);
    open();
    breaker.probeSucceeded(1);
    assertThat(breaker.holds(List.of(permit(second, OnError.FAIL_OPEN)))).isTrue();
    assertThat(
            breaker.holds(
                List.of(permit(second, OnError.FAIL_OPEN), permit(second, OnError.FAIL_CLOSED))))
        .isFalse();
    assertThat(breaker.holds(List.of(permit(bucket, OnError.FAIL_OPEN)))).isFalse();
    assertThat(breaker.holds(List.of(permit(minute)))).isFalse();
  }

  private static Permit permit(Counters counters) {
    return permit(counters, OnError.FAIL_OPEN);
  }

  private static Permit permit(Counters counters, OnError onError) {
    return new Permit(counters, "ip=1", Quota.of(10, counters.windowMicros(), 10), 1, onError);
  }

  private void open() {
    for (int i = 0; i < Breaker.FAILURES_TO_OPEN; i++) {
      breaker.failed(timeout);
    }
    assertThat(breaker.isOpen()).isTrue();
  }
}
