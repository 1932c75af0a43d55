package dev.sluice.store.redis;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Consistency;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A lease spends its grants by compare-and-set, a grant fetched ahead takes over from a spent or
 * dead one, every grant that ends is handed over with what it left, and the size adapts: a cold or
 * slow identity takes its permits exactly, a third request within a sync leases two, doubled when
 * spent out within half a sync, halved when a grant dies with permits left.
 */
class LeaseTest {
  private static final long MINUTE = 60 * SECOND;
  private static final long SYNC = SECOND / 10;

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final MemoryStore local = new MemoryStore(clock, 100, 0);
  private final RedisCounters counters =
      new RedisCounters(
          local.counters("r", Algorithm.FIXED_WINDOW, MINUTE), Consistency.localFirst(SYNC));
  private final Lease lease =
      new Lease("k", counters, Quota.of(100, MINUTE, 100), new LeaseTally(), clock.micros());

  /** The grants that ended, with what each left. */
  private final List<Long> ended = new ArrayList<>();

  private final Lease.Ended ends = (l, grant, now) -> ended.add(grant.kill());

  private Grant grant(long size, long lifeMicros) {
    long now = clock.micros();
    return new Grant(size, 7, now + lifeMicros, now, 50, now + MINUTE);
  }

  @Test
  void spendsAGrantToTheEndThenTheOneAheadTakesOver() {
    Grant first = grant(2, MINUTE);
    lease.install(first, clock.micros(), ends);
    assertThat(lease.spend(1, clock.micros(), ends)).isSameAs(first);
    assertThat(lease.wantsNext(first)).as("half spent").isTrue();
    Grant ahead = grant(3, MINUTE);
    lease.install(ahead, clock.micros(), ends);
    assertThat(lease.held()).isEqualTo(4);
    assertThat(lease.spend(1, clock.micros(), ends)).isSameAs(first);
    assertThat(lease.spend(1, clock.micros(), ends)).isSameAs(ahead);
    assertThat(ended).as("the first, spent out").containsExactly(0L);
    assertThat(lease.spend(3, clock.micros(), ends)).as("two left").isNull();
  }

  @Test
  void aDeadGrantServesNothingAndTheNextOneReplacesIt() {
    Grant dying = grant(5, SECOND);
    lease.install(dying, clock.micros(), ends);
    clock.advance(SECOND);
    assertThat(lease.spend(1, clock.micros(), ends)).isNull();
    lease.install(grant(2, MINUTE), clock.micros(), ends);
    assertThat(ended).as("replaced with all it held").containsExactly(5L);
    assertThat(lease.spend(1, clock.micros(), ends)).isNotNull();
  }

  @Test
  void permitsPutBackToADeadGrantAreNotSpentAgain() {
    Grant grant = grant(1, MINUTE);
    lease.install(grant, clock.micros(), ends);
    lease.spend(1, clock.micros(), ends);
    assertThat(grant.putBack(1)).isTrue();
    assertThat(grant.kill()).isEqualTo(1);
    assertThat(grant.putBack(1)).isFalse();
    assertThat(grant.spend(1)).isFalse();
  }

  @Test
  void theSizeDoublesWhenSpentOutWithinHalfASyncAndHalvesWhenPermitsDie() {
    assertThat(lease.want()).as("a cold identity asks for one").isEqualTo(1);
    lease.install(grant(1, MINUTE), clock.micros(), ends);
    lease.spend(1, clock.micros(), ends);
    assertThat(lease.want()).as("spent by the request that fetched it: no rate").isEqualTo(1);
    clock.advance(SYNC / 2);
    assertThat(lease.spend(1, clock.micros(), ends)).as("empty").isNull();
    assertThat(lease.want()).as("a client back half a sync later: slow").isEqualTo(1);
    lease.install(grant(1, MINUTE), clock.micros(), ends);
    lease.spend(1, clock.micros(), ends);
    clock.advance(SYNC / 2 - 1);
    assertThat(lease.spend(1, clock.micros(), ends)).as("empty").isNull();
    assertThat(lease.want()).as("asked again within half a sync of the fetch").isEqualTo(2);
    lease.install(grant(2, MINUTE), clock.micros(), ends);
    clock.advance(SYNC / 2);
    lease.spend(1, clock.micros(), ends);
    lease.spend(1, clock.micros(), ends);
    assertThat(lease.want()).as("spent out in half a sync: no faster").isEqualTo(2);
    lease.shrink();
    assertThat(lease.want()).isEqualTo(1);
    lease.shrink();
    assertThat(lease.want()).as("never below one").isEqualTo(1);
  }

  @Test
  void aColdOrSlowIdentityTakesItsPermitsExactlyUntilAThirdComesWithinASync() {
    assertThat(lease.takesExactly(clock.micros())).as("cold").isTrue();
    clock.advance(SYNC / 2);
    assertThat(lease.takesExactly(clock.micros())).as("a second within a sync").isTrue();
    clock.advance(SYNC / 2);
    assertThat(lease.takesExactly(clock.micros())).as("a third a sync after the first").isTrue();
    clock.advance(SYNC - 1);
    assertThat(lease.takesExactly(clock.micros())).as("its second").isTrue();
    assertThat(lease.want()).isEqualTo(1);
    assertThat(lease.takesExactly(clock.micros())).as("a third within a sync").isFalse();
    assertThat(lease.want()).isEqualTo(2);
    clock.advance(SYNC);
    assertThat(lease.takesExactly(clock.micros())).as("asks for two: leases").isFalse();
    lease.shrink();
    assertThat(lease.takesExactly(clock.micros())).as("shrunk back to one").isTrue();
  }

  @Test
  void aPermitWaitsForAFetchInFlightRatherThanGoExactly() {
    assertThat(lease.beginFetch(new CompletableFuture<>())).isNull();
    assertThat(lease.takesExactly(clock.micros())).isFalse();
    lease.endFetch();
    assertThat(lease.takesExactly(clock.micros())).isTrue();
  }

  @Test
  void aSweepEndsGrantsIdleForASyncAndThenTheLeaseCanBeForgotten() {
    lease.install(grant(4, MINUTE), clock.micros(), ends);
    lease.spend(1, clock.micros(), ends);
    clock.advance(SYNC - 1);
    assertThat(lease.sweep(clock.micros(), ends)).isFalse();
    assertThat(ended).isEmpty();
    clock.advance(1);
    assertThat(lease.sweep(clock.micros(), ends)).as("empty and idle").isTrue();
    assertThat(ended).containsExactly(3L);
    assertThat(lease.held()).isZero();
  }

  @Test
  void aSweepEndsADeadGrantEvenWhileTheLeaseIsBusy() {
    lease.install(grant(4, SECOND), clock.micros(), ends);
    clock.advance(SECOND);
    lease.spend(1, clock.micros(), ends);
    assertThat(lease.sweep(clock.micros(), ends)).isFalse();
    assertThat(ended).containsExactly(4L);
  }
}
