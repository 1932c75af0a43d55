package dev.sluice.store;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** What only the embedded store promises: bounded memory. */
class MemoryStoreTest {
  private static final long MINUTE = 60 * SECOND;

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  private static boolean take(Store store, Counters counters, String identity, long limit) {
    Permit permit = new Permit(counters, identity, Quota.of(limit, MINUTE, limit), 1);
    store.acquire(Collections.singletonList(permit));
    return permit.verdict().allowed();
  }

  /**
   * A file of many rules that few clients reach must not cost 64 segments a rule (about 22 KB):
   * issue 28, where 12,444 rules took 29 KB of heap each.
   */
  @Test
  void aRuleMakesOnlyTheSegmentsItsIdentitiesFallIn() {
    MemoryStore store = new MemoryStore(clock, 100, 0);
    Table unused = (Table) store.counters("unused", Algorithm.FIXED_WINDOW, MINUTE);
    Table used = (Table) store.counters("used", Algorithm.FIXED_WINDOW, MINUTE);
    assertThat(unused.madeSegments()).isEmpty();
    take(store, used, "a", 5);
    take(store, used, "a", 5);
    assertThat(used.madeSegments()).hasSize(1);
    clock.advance(MINUTE);
    store.sweep();
    assertThat(unused.madeSegments()).as("a sweep makes none").isEmpty();
    assertThat(take(store, used, "a", 1)).isTrue();
    assertThat(take(store, used, "a", 1)).isFalse();
  }

  @Test
  void idleKeysAreSweptAndComeBackFresh() {
    MemoryStore store = new MemoryStore(clock, 100, 0);
    Counters fixed = store.counters("f", Algorithm.FIXED_WINDOW, MINUTE);
    Counters sliding = store.counters("s", Algorithm.SLIDING_WINDOW, MINUTE);
    Counters bucket = store.counters("t", Algorithm.TOKEN_BUCKET, MINUTE);
    for (Counters c : new Counters[] {fixed, sliding, bucket}) {
      take(store, c, "a", 1);
    }
    assertThat(store.keyCount()).isEqualTo(3);

    clock.advance(MINUTE);
    store.sweep();
    assertThat(store.keyCount()).as("the fixed window and the full bucket are idle").isEqualTo(1);
    clock.advance(MINUTE);
    store.sweep();
    assertThat(store.keyCount()).as("the sliding window after two windows").isZero();
    assertThat(take(store, sliding, "a", 1)).isTrue();
  }

  @Test
  void aSweepNeverDropsALiveCount() {
    MemoryStore store = new MemoryStore(clock, 100, 0);
    Counters bucket = store.counters("t", Algorithm.TOKEN_BUCKET, MINUTE);
    take(store, bucket, "a", 1);
    clock.advance(MINUTE - 1);
    store.sweep();
    assertThat(take(store, bucket, "a", 1)).isFalse();
  }

  @Test
  void beyondTheKeyCapNewIdentitiesShareOneLimitedCounter() {
    MemoryStore store = new MemoryStore(clock, 3, 0);
    Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, MINUTE);
    for (String known : new String[] {"a", "b", "c"}) {
      assertThat(take(store, counters, known, 2)).isTrue();
    }
    assertThat(take(store, counters, "d", 2)).isTrue();
    assertThat(take(store, counters, "e", 2)).isTrue();
    assertThat(take(store, counters, "f", 2)).as("d, e and f share the overflow").isFalse();
    assertThat(store.keyCount()).isEqualTo(3);
    assertThat(take(store, counters, "a", 2)).as("known keys keep their own count").isTrue();
  }

  /** A peek decides where acquire would count: beyond the cap, in the shared overflow. */
  @Test
  void beyondTheKeyCapAPeekOfANewIdentityTellsTheOverflowsVerdict() {
    MemoryStore store = new MemoryStore(clock, 1, 0);
    Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, MINUTE);
    Permit fresh = new Permit(counters, "b", Quota.of(1, MINUTE, 1), 1);
    store.peek(Collections.singletonList(fresh));
    assertThat(fresh.verdict().allowed()).as("a key to spare").isTrue();
    assertThat(store.keyCount()).as("none taken by the peek").isZero();

    take(store, counters, "a", 1);
    take(store, counters, "overflow", 1);
    Permit beyond = new Permit(counters, "b", Quota.of(1, MINUTE, 1), 1);
    store.peek(Collections.singletonList(beyond));
    assertThat(beyond.verdict().allowed()).as("b would share the spent overflow").isFalse();
    assertThat(take(store, counters, "b", 1)).isFalse();
  }

  @Test
  void eachRuleHasItsOwnKeyBudget() {
    MemoryStore store = new MemoryStore(clock, 2, 0);
    Counters junk = store.counters("api", Algorithm.FIXED_WINDOW, MINUTE);
    Counters login = store.counters("login", Algorithm.FIXED_WINDOW, MINUTE);
    for (int i = 0; i < 10; i++) {
      take(store, junk, "key=junk" + i, 1);
    }
    assertThat(take(store, login, "ip=1", 1)).isTrue();
    assertThat(take(store, login, "ip=2", 1)).as("a second new client of login").isTrue();
    assertThat(store.keyCount()).isEqualTo(4);
  }

  @Test
  void aDeniedNewIdentityTakesNoKey() {
    MemoryStore store = new MemoryStore(clock, 10, 0);
    Counters perIp = store.counters("ip", Algorithm.FIXED_WINDOW, MINUTE);
    Counters perKey = store.counters("key", Algorithm.FIXED_WINDOW, MINUTE);
    take(store, perIp, "ip=1", 1);
    for (int i = 0; i < 5; i++) {
      Permit ip = new Permit(perIp, "ip=1", Quota.of(1, MINUTE, 1), 1);
      Permit key = new Permit(perKey, "key=random" + i, Quota.of(100, MINUTE, 100), 1);
      store.acquire(java.util.Arrays.asList(ip, key));
      assertThat(ip.verdict().allowed()).isFalse();
    }
    assertThat(store.keyCount()).as("only ip=1, never the random keys").isEqualTo(1);
  }

  @Test
  void sweepingMakesRoomAgain() {
    MemoryStore store = new MemoryStore(clock, 2, 0);
    Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, MINUTE);
    take(store, counters, "a", 1);
    take(store, counters, "b", 1);
    clock.advance(MINUTE);
    store.sweep();
    take(store, counters, "c", 1);
    assertThat(take(store, counters, "c", 1)).as("c has a cell of its own").isFalse();
    assertThat(take(store, counters, "d", 1)).isTrue();
  }

  @Test
  void forgettingARuleGivesItsKeysBack() {
    MemoryStore store = new MemoryStore(clock, 10, 0);
    Counters gone = store.counters("gone", Algorithm.FIXED_WINDOW, MINUTE);
    for (int i = 0; i < 10; i++) {
      take(store, gone, "k" + i, 1);
    }
    store.retainOnly(Collections.<Counters>emptyList());
    assertThat(store.keyCount()).isZero();
    assertThat(take(store, gone, "late", 1))
        .as("a retired rule still limits, in overflow")
        .isTrue();
    assertThat(store.keyCount()).isZero();
  }

  @Test
  void theBackgroundSweeperRuns() throws InterruptedException {
    MemoryStore store = new MemoryStore(clock, 10, 5);
    try {
      take(store, store.counters("r", Algorithm.FIXED_WINDOW, MINUTE), "a", 1);
      clock.advance(MINUTE);
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (store.keyCount() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(store.keyCount()).isZero();
    } finally {
      store.close();
    }
  }
}
