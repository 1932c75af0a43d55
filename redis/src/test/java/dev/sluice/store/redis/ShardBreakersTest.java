package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.sluice.metrics.RoundTrips;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.ManualClock;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

class ShardBreakersTest {
  private static final HostAndPort FIRST = new HostAndPort("127.0.0.1", 7001);
  private static final HostAndPort SECOND = new HostAndPort("127.0.0.1", 7002);
  private static final HostAndPort PROMOTED = new HostAndPort("127.0.0.1", 7004);

  private final ManualClock clock = new ManualClock(0);
  private final ShardBreakers breakers = new ShardBreakers(clock, "cluster");
  private final Slots slots = new Slots().serve(1, FIRST).serve(2, SECOND);

  @Test
  void untilKeysArePlacedEveryKeyHasTheWholeBreaker() {
    assertThat(breakers.of("a")).isSameAs(breakers.whole()).isSameAs(breakers.of("b"));
  }

  @Test
  void eachMasterHasABreakerOfItsOwn() {
    breakers.locate(slots);

    assertThat(breakers.of("1a")).isSameAs(breakers.of("1b")).isNotSameAs(breakers.whole());
    assertThat(breakers.of("2a")).isNotSameAs(breakers.of("1a")).isNotSameAs(breakers.whole());
    assertThat(breakers.of("x")).as("a slot without a master").isSameAs(breakers.whole());
  }

  @Test
  void oneFailingMasterLeavesTheOthersCalling() {
    breakers.locate(slots);
    breakers.of("1a").failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);

    assertThat(breakers.of("1a").pass()).isEqualTo(Breaker.Pass.LOCAL);
    assertThat(breakers.of("2a").pass()).isEqualTo(Breaker.Pass.CALL);
    assertThat(breakers.unreachable("1a", null)).isTrue();
    assertThat(breakers.unreachable("1a", breakers.of("1a"))).as("its own probe").isFalse();
    assertThat(breakers.unreachable("2a", null)).isFalse();
  }

  @Test
  void aReplicaPromotedInAFailoverInheritsItsSlotsOpenBreaker() {
    breakers.locate(slots);
    Breaker failed = breakers.of("1a");
    failed.failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);

    slots.serve(1, PROMOTED);

    assertThat(breakers.of("1a"))
        .as("what was admitted locally for these slots must still be handed over first")
        .isSameAs(failed);
    assertThat(failed.isOpen()).isTrue();
  }

  /**
   * The first key asked for after the promotion may be of a slot this JVM never placed a key in:
   * its master is still the failed one's heir, and its local admissions still owed.
   */
  @Test
  void aPromotedReplicaInheritsTheOpenBreakerThroughASlotNoKeyWasPlacedInBefore() {
    slots.serve(3, FIRST);
    breakers.locate(slots);
    Breaker failed = breakers.of("1a");
    failed.failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);

    slots.serve(1, PROMOTED).serve(3, PROMOTED);

    assertThat(breakers.of("3a")).isSameAs(failed).isSameAs(breakers.of("1a"));
    assertThat(failed.isOpen()).isTrue();
  }

  /**
   * The probes sent to the dead master made the pause grow; the promoted replica is probed by the
   * next request instead (with the handover first), and a failed probe of it waits the first pause
   * doubled, not the dead master's.
   */
  @Test
  void aPromotedReplicaIsProbedAtOnceNotAfterThePauseTheDeadMasterEarned() {
    breakers.locate(slots);
    Breaker failed = breakers.of("1a");
    failed.failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);
    for (int i = 0; i < 5; i++) {
      clock.advance(Breaker.MAX_PAUSE_MILLIS * 1000);
      assertThat(failed.pass()).isEqualTo(Breaker.Pass.PROBE);
      failed.probeFailed();
    }
    assertThat(failed.pass()).isEqualTo(Breaker.Pass.LOCAL);

    slots.serve(1, PROMOTED);

    assertThat(breakers.of("1a").pass()).isEqualTo(Breaker.Pass.PROBE);
    failed.probeFailed();
    clock.advance(2 * Breaker.FIRST_PAUSE_MILLIS * 1000 - 1);
    assertThat(failed.pass()).isEqualTo(Breaker.Pass.LOCAL);
    clock.advance(1);
    assertThat(failed.pass()).isEqualTo(Breaker.Pass.PROBE);
  }

  @Test
  void aSlotMovedToAKnownMasterTakesThatMastersBreaker() {
    breakers.locate(slots);
    Breaker first = breakers.of("1a");
    Breaker second = breakers.of("2a");

    slots.serve(1, SECOND);

    assertThat(breakers.of("1a")).isSameAs(second).isNotSameAs(first);
  }

  @Test
  void statesNameEachBreakerOnceAsItsLogLinesDo() {
    breakers.locate(slots);
    Breaker failed = breakers.of("1a");
    breakers.of("2a");
    failed.failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);
    slots.serve(1, PROMOTED);
    breakers.of("1a");

    assertThat(breakers.states())
        .containsExactly(
            entry("cluster, master 127.0.0.1:7002", StoreStatus.CLOSED),
            entry("cluster, master 127.0.0.1:7004", StoreStatus.OPEN));

    clock.advance(Breaker.FIRST_PAUSE_MILLIS * 1000);
    assertThat(failed.pass()).isEqualTo(Breaker.Pass.PROBE);
    assertThat(breakers.states())
        .containsEntry("cluster, master 127.0.0.1:7004", StoreStatus.PROBING);
  }

  @Test
  void beforeTheSlotMapTheWholeBreakerIsTheOneShard() {
    assertThat(breakers.states()).containsExactly(entry("cluster", StoreStatus.CLOSED));
    breakers.whole().failed(new RuntimeException("cannot connect"), Breaker.FAILURES_TO_OPEN);
    assertThat(breakers.states()).containsExactly(entry("cluster", StoreStatus.OPEN));
  }

  /** Issue 28: the health of a cluster whose every master is down said "degraded", never "down". */
  @Test
  void onceTheSlotMapIsKnownTheShardsAreItsMasters() {
    breakers.locate(slots);
    assertThat(breakers.states())
        .as("connected, no key placed yet")
        .containsExactly(entry("cluster", StoreStatus.CLOSED));
    breakers.of("1a").failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);
    breakers.of("2a").failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);

    StoreStatus everyMasterDown =
        StoreStatus.redis(new RoundTrips(clock::micros), breakers.states(), 1);
    assertThat(everyMasterDown.breakers())
        .containsExactly(
            entry("cluster, master 127.0.0.1:7001", StoreStatus.OPEN),
            entry("cluster, master 127.0.0.1:7002", StoreStatus.OPEN));
    assertThat(everyMasterDown.openBreakers()).isEqualTo(everyMasterDown.breakers().size());

    breakers.of("x").failed(new RuntimeException("no master"), Breaker.FAILURES_TO_OPEN);
    assertThat(breakers.states())
        .as("the whole breaker decides keys without a master, and counts once it is not closed")
        .containsEntry("cluster", StoreStatus.OPEN)
        .hasSize(3);
  }
}
