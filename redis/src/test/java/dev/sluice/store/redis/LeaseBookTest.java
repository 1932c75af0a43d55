package dev.sluice.store.redis;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Consistency;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The book's side of leases that needs no Redis: which permits are leased, a lease per key and
 * quota, what a reload keeps, and the stats. Without a client nothing can be fetched, so a permit
 * is left to the exact way.
 */
class LeaseBookTest {
  private static final long MINUTE = 60 * SECOND;
  private static final String KEY = "rl{abc}defghij";

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final MemoryStore local = new MemoryStore(clock, 100, 0);
  private final ShardBreakers breakers = new ShardBreakers(clock, "test");
  private final LocalDenials denials = new LocalDenials(clock);
  private final LeaseBook book =
      new LeaseBook(
          clock,
          breakers,
          denials,
          new LeaseCalls(
              clock,
              new Fleet("rl", 4, 1),
              ScriptTime.REDIS,
              breakers,
              denials,
              new LastAnswers(),
              () -> null));

  private RedisCounters counters(Consistency consistency) {
    return new RedisCounters(local.counters("api", Algorithm.FIXED_WINDOW, MINUTE), consistency);
  }

  private Grant take(Counters counters, Quota quota) {
    Permit permit = new Permit(counters, "ip=10.0.0.1", quota, 1);
    return book.take(permit, KEY, Collections.singletonList(permit), null, 0);
  }

  @Test
  void onlyLocalFirstPermitsThatAreNotDelayedAreLeased() {
    Quota quota = Quota.of(100, MINUTE, 100);
    assertThat(LeaseBook.leased(new Permit(counters(Consistency.EXACT), "i", quota, 1))).isFalse();
    RedisCounters localFirst = counters(Consistency.localFirst(SECOND));
    assertThat(LeaseBook.leased(new Permit(localFirst, "i", quota, 1))).isTrue();
    Quota delayed = quota.delayed(100, 1, SECOND);
    assertThat(LeaseBook.leased(new Permit(localFirst, "i", delayed, 1))).isFalse();
  }

  @Test
  void withoutRedisAnEmptyLeaseLeavesThePermitToTheExactWay() {
    RedisCounters localFirst = counters(Consistency.localFirst(SECOND));
    assertThat(take(localFirst, Quota.of(100, MINUTE, 100))).isNull();
    assertThat(book.stats().get("api").leases()).isEqualTo(1);
    assertThat(book.stats().get("api").permitsHeld()).as("nothing granted").isZero();
    assertThat(book.stats().get("api").exact()).as("counted as decided otherwise").isEqualTo(1);
  }

  @Test
  void aReloadKeepsLeasesOfRulesStillLocalFirstWithTheSameSyncOnly() {
    RedisCounters localFirst = counters(Consistency.localFirst(SECOND));
    take(localFirst, Quota.of(100, MINUTE, 100));
    List<Counters> same = Arrays.<Counters>asList(counters(Consistency.localFirst(SECOND)));
    book.retainOnly(same);
    assertThat(book.stats().get("api").leases()).isEqualTo(1);
    book.retainOnly(Arrays.<Counters>asList(counters(Consistency.localFirst(2 * SECOND))));
    assertThat(book.stats().get("api").leases()).as("another sync").isZero();
    take(localFirst, Quota.of(100, MINUTE, 100));
    book.retainOnly(Arrays.<Counters>asList(counters(Consistency.EXACT)));
    assertThat(book.stats()).as("exact now: no leases, no stats").isEmpty();
  }

  @Test
  void aLeaseIdleForASyncIsForgotten() {
    take(counters(Consistency.localFirst(SECOND)), Quota.of(100, MINUTE, 100));
    clock.advance(SECOND);
    book.sweep();
    assertThat(book.stats().get("api").leases()).isZero();
  }
}
