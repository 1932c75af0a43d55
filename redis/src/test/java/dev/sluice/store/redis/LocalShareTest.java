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
  private final LastAnswers answers = new LastAnswers();
  private final LocalShare share = ofFleet(2);
  private final RedisCounters open = counters("open", Algorithm.FIXED_WINDOW);
  private final RedisCounters closed = counters("closed", Algorithm.TOKEN_BUCKET);

  @AfterEach
  void close() {
    share.close();
  }

  private LocalShare ofFleet(int size) {
    return new LocalShare(
        new MemoryStore(clock, 1_000, 0), new Fleet("p", size, 1), ledger, answers, clock);
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
    LocalShare ofTwenty = ofFleet(20);
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

  /**
   * Redis allowed a request of {@code rule} for ip=1 in the window in force and said what was left
   * of it.
   */
  private void redisAnswered(RedisCounters rule, long remaining) {
    Permit answered = new Permit(rule, "ip=1", HUNDRED, 1, OnError.FAIL_OPEN);
    IdentityCall call = IdentityCall.alone(answered, rule.key("p", RedisKey.hash("ip=1")));
    call.fill(List.of(1L, remaining, MINUTE, clock.micros() / MINUTE));
    answers.allowed(call);
  }

  private int admitted(RedisCounters rule, int requests) {
    int admitted = 0;
    for (int i = 0; i < requests; i++) {
      admitted += take(new Permit(rule, "ip=1", HUNDRED, 1, OnError.FAIL_OPEN)) ? 1 : 0;
    }
    return admitted;
  }

  /**
   * Redis had counted 70 of the 100 when it stopped answering, 20 s into the minute: for the rest
   * of that minute this JVM admits 30 ÷ 2, not its whole share of 50; from the next minute on, 50.
   */
  @Test
  void theWindowRedisFailedInIsSharedFromWhatItsLastAnswerLeft() {
    clock.advance(20 * ManualClock.SECOND);
    redisAnswered(open, 30);

    assertThat(admitted(open, 60)).isEqualTo(15);
    clock.advance(40 * ManualClock.SECOND - 1);
    assertThat(admitted(open, 1)).isZero();
    clock.advance(1);
    assertThat(admitted(open, 60)).isEqualTo(50);
    assertThat(ledger.due().get(0).cost)
        .as("what was admitted in the minute in force")
        .isEqualTo(50);
  }

  /** A sliding window's last answer holds until the end of its window too. */
  @Test
  void aSlidingWindowsLastAnswerHoldsUntilItsWindowEnds() {
    RedisCounters sliding = counters("sliding", Algorithm.SLIDING_WINDOW);
    clock.advance(20 * ManualClock.SECOND);
    redisAnswered(sliding, 10);

    assertThat(admitted(sliding, 10)).isEqualTo(5);
    clock.advance(40 * ManualClock.SECOND);
    assertThat(admitted(sliding, 1))
        .as("a whole share again, less the previous minute's weight")
        .isOne();
  }

  /** Less than one request per JVM left: none locally, and the retry says when the window ends. */
  @Test
  void aRemainingBelowTheFleetSizeLeavesNothingToAdmitUntilTheWindowEnds() {
    clock.advance(45 * ManualClock.SECOND);
    redisAnswered(open, 1);

    Permit denied = new Permit(open, "ip=1", HUNDRED, 1, OnError.FAIL_OPEN);
    assertThat(take(denied)).isFalse();
    assertThat(denied.decidedLocally()).isTrue();
    assertThat(denied.verdict().retryAfterMicros()).isEqualTo(15 * ManualClock.SECOND);
    assertThat(ledger.owes()).isFalse();
    clock.advance(15 * ManualClock.SECOND);
    assertThat(admitted(open, 60)).isEqualTo(50);
  }

  /** A bucket has no window to resume: its local share keeps its rate and burst. */
  @Test
  void aBucketsShareIsWholeWhateverRedisLastSaid() {
    redisAnswered(closed, 0);

    assertThat(admitted(closed, 60)).isEqualTo(50);
  }
}
