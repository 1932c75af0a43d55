package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Quota;
import dev.sluice.store.ManualClock;
import dev.sluice.store.redis.LocalLedger.Owed;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalLedgerTest {
  private static final long MINUTE = 60 * ManualClock.SECOND;
  private static final Quota HUNDRED = Quota.of(100, MINUTE, 100);

  /** A second into window 10 of a minute. */
  private final ManualClock clock = new ManualClock(10 * MINUTE + ManualClock.SECOND);

  private final LocalLedger ledger = new LocalLedger(clock);

  private static Owed only(List<Owed> due) {
    assertThat(due).hasSize(1);
    return due.get(0);
  }

  @Test
  void sumsWhatEachKeyAdmittedInItsWindow() {
    ledger.remember("a", "f", HUNDRED, 3);
    ledger.remember("a", "f", HUNDRED, 2);
    ledger.remember("b", "t", HUNDRED, 1);

    List<Owed> due = ledger.due();

    assertThat(due).extracting(o -> o.key + "=" + o.cost).containsExactlyInAnyOrder("a=5", "b=1");
    assertThat(due).allSatisfy(o -> assertThat(o.window).isEqualTo(10));
    assertThat(due).filteredOn(o -> o.key.equals("b")).extracting(o -> o.code).containsExactly("t");
  }

  @Test
  void forgetsWhatWasAdmittedInAWindowThatIsOver() {
    ledger.remember("a", "f", HUNDRED, 5);
    clock.advance(MINUTE);

    assertThat(ledger.due()).isEmpty();
    assertThat(ledger.owes()).isFalse();
  }

  @Test
  void aNewWindowStartsTheSumAfresh() {
    ledger.remember("a", "f", HUNDRED, 5);
    clock.advance(MINUTE);
    ledger.remember("a", "f", HUNDRED, 1);

    Owed owed = only(ledger.due());
    assertThat(owed.cost).isEqualTo(1);
    assertThat(owed.window).isEqualTo(11);
  }

  @Test
  void chargingKeepsWhatWasAdmittedMeanwhile() {
    ledger.remember("a", "f", HUNDRED, 3);
    Owed sent = only(ledger.due());
    ledger.remember("a", "f", HUNDRED, 2);

    ledger.charged(sent);
    Owed left = only(ledger.due());
    assertThat(left.cost).isEqualTo(2);

    ledger.charged(left);
    assertThat(ledger.owes()).isFalse();
  }

  @Test
  void aChargeForAWindowThatIsOverLeavesTheNewWindowOwed() {
    ledger.remember("a", "f", HUNDRED, 3);
    Owed sent = only(ledger.due());
    clock.advance(MINUTE);
    ledger.remember("a", "f", HUNDRED, 1);

    ledger.charged(sent);

    assertThat(only(ledger.due()).cost).isEqualTo(1);
  }

  @Test
  void stopsRememberingNewKeysAtTheBudgetButKeepsSummingKnownOnes() {
    for (int i = 0; i < LocalLedger.MAX_KEYS; i++) {
      ledger.remember("k" + i, "f", HUNDRED, 1);
    }
    ledger.remember("one too many", "f", HUNDRED, 1);
    ledger.remember("k7", "f", HUNDRED, 1);

    List<Owed> due = ledger.due();
    assertThat(due).hasSize(LocalLedger.MAX_KEYS);
    assertThat(due).noneMatch(o -> o.key.equals("one too many"));
    assertThat(due).filteredOn(o -> o.key.equals("k7")).extracting(o -> o.cost).containsExactly(2L);
  }

  @Test
  void forcedChargeIsOneRequestThatNoLimitOrBucketRefuses() {
    Quota bucket = Quota.of(10, MINUTE, 4);
    ledger.remember("a", "t", bucket, 7);

    List<String> args = Handover.args(only(ledger.due()), "0");

    String unreachable = Long.toString(Handover.UNREACHABLE);
    assertThat(args)
        .containsExactly(
            "0",
            "1",
            "1",
            "1",
            "1",
            "t",
            unreachable,
            Long.toString(MINUTE),
            "6000000",
            unreachable,
            "7");
  }
}
