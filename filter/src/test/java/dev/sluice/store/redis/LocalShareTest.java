package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.LocalLedger.Owed;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A fleet of two: each JVM decides half of a limit of 100 and remembers what it admitted. */
class LocalShareTest {
  private static final long MINUTE = 60 * ManualClock.SECOND;
  private static final Quota HUNDRED = Quota.of(100, MINUTE, 100);

  private final ManualClock clock = new ManualClock(10 * MINUTE);
  private final LocalLedger ledger = new LocalLedger(clock);
  private final LocalShare share =
      new LocalShare(new MemoryStore(clock, 1_000, 0), new Fleet("p", 2, 1), ledger);
  private final RedisCounters open = counters("open", Algorithm.FIXED_WINDOW);
  private final RedisCounters closed = counters("closed", Algorithm.TOKEN_BUCKET);

  @AfterEach
  void close() {
    share.close();
  }

  private RedisCounters counters(String rule, Algorithm algorithm) {
    return new RedisCounters(share.counters(rule, algorithm, MINUTE));
  }

  private boolean take(Permit... permits) {
    return take(share, permits);
  }

  private static boolean take(LocalShare share, Permit... permits) {
    List<String> keys =
        Arrays.stream(permits)
            .map(p -> ((RedisCounters) p.counters()).key("p", RedisKey.hash(p.identity())))
            .collect(Collectors.toList());
    share.acquire(Arrays.asList(permits), keys);
    return permits[0].verdict().allowed();
  }

  @Test
  void remembersTheFailOpenShareItAdmittedUnderTheRedisKey() {
    int admitted = 0;
    for (int i = 0; i < 60; i++) {
      admitted += take(new Permit(open, "ip=1", HUNDRED, 1, OnError.FAIL_OPEN)) ? 1 : 0;
    }

    assertThat(admitted).isEqualTo(50);
    List<Owed> due = ledger.due();
    assertThat(due).hasSize(1);
    Owed owed = due.get(0);
    assertThat(owed.key).isEqualTo(open.key("p", RedisKey.hash("ip=1")));
    assertThat(owed.code).isEqualTo("f");
    assertThat(owed.cost).isEqualTo(50);
    assertThat(owed.quota).as("the rule's quota, not the share").isSameAs(HUNDRED);
  }

  @Test
  void marksEveryVerdictItReachesAsLocal() {
    Permit lenient = new Permit(open, "ip=1", HUNDRED, 1, OnError.FAIL_OPEN);
    take(lenient);
    assertThat(lenient.decidedLocally()).isTrue();

    Permit alongside = new Permit(open, "ip=2", HUNDRED, 1, OnError.FAIL_OPEN);
    Permit strict = new Permit(closed, "global", HUNDRED, 1, OnError.FAIL_CLOSED);
    take(alongside, strict);
    assertThat(alongside.decidedLocally()).isTrue();
    assertThat(strict.decidedLocally()).isTrue();
  }

  @Test
  void remembersNothingOfARequestAFailClosedRuleDenies() {
    boolean allowed =
        take(
            new Permit(open, "ip=1", HUNDRED, 1, OnError.FAIL_OPEN),
            new Permit(closed, "global", HUNDRED, 1, OnError.FAIL_CLOSED));

    assertThat(allowed).isFalse();
    assertThat(ledger.owes()).isFalse();
  }

  /**
   * A fleet of 20 and a limit of 100: a share of 5, less than a request costing 10. Each JVM still
   * admits one such request a window, rather than none while its headers promise 5 remaining; a
   * bucket keeps its share's rate (5 a minute: one request of 10 every two minutes) and grows only
   * its burst to hold the request.
   */
  @Test
  void aShareSmallerThanTheCostAdmitsOneRequestOfIt() {
    LocalShare ofTwenty =
        new LocalShare(new MemoryStore(clock, 1_000, 0), new Fleet("p", 20, 1), ledger);
    RedisCounters window =
        new RedisCounters(ofTwenty.counters("w", Algorithm.SLIDING_WINDOW, MINUTE));
    RedisCounters bucket =
        new RedisCounters(ofTwenty.counters("b", Algorithm.TOKEN_BUCKET, MINUTE));
    try {
      for (RedisCounters rule : Arrays.asList(window, bucket)) {
        Permit first = new Permit(rule, "ip=1", HUNDRED, 10, OnError.FAIL_OPEN);
        assertThat(take(ofTwenty, first)).as("%s", rule).isTrue();
        assertThat(first.verdict().remaining()).isZero();
        assertThat(take(ofTwenty, new Permit(rule, "ip=1", HUNDRED, 10, OnError.FAIL_OPEN)))
            .as("%s: one request of 10 is the share", rule)
            .isFalse();
      }
      clock.advance(2 * MINUTE - 1);
      assertThat(take(ofTwenty, new Permit(bucket, "ip=1", HUNDRED, 10, OnError.FAIL_OPEN)))
          .isFalse();
      clock.advance(1);
      assertThat(take(ofTwenty, new Permit(bucket, "ip=1", HUNDRED, 10, OnError.FAIL_OPEN)))
          .isTrue();
    } finally {
      ofTwenty.close();
    }
  }

  @Test
  void remembersTheCostOfEachRuleOfAnAdmittedRequest() {
    RedisCounters bucket = counters("bucket", Algorithm.TOKEN_BUCKET);
    take(
        new Permit(open, "ip=1", HUNDRED, 3, OnError.FAIL_OPEN),
        new Permit(bucket, "key=k", HUNDRED, 3, OnError.FAIL_OPEN));

    assertThat(ledger.due())
        .extracting(o -> o.key + " " + o.code + " " + o.cost)
        .containsExactlyInAnyOrder(
            open.key("p", RedisKey.hash("ip=1")) + " f 3",
            bucket.key("p", RedisKey.hash("key=k")) + " t 3");
  }
}
