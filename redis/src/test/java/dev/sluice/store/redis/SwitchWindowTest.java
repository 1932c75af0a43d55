package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The window a breaker closes in stays with the local share: the rest of the fleet may still be
 * deciding it locally, and Redis cannot know what they will admit. The client never reaches a
 * server, so whether a decision asked Redis shows in the pipelines the test's thread asked for.
 */
class SwitchWindowTest {
  private static final long SECOND = ManualClock.SECOND;
  private static final long MINUTE = 60 * SECOND;

  /** 300 ms into a second. */
  private final ManualClock clock = new ManualClock(10 * MINUTE + 300_000);

  private final FailingRedis redis = new FailingRedis();
  private final RedisStore store =
      new RedisStore(redis, "failing", "p", 2, clock, 1_000, ScriptTime.REDIS, 1_000);
  private final Breaker breaker = store.breakers.whole();

  @BeforeEach
  void redisWasDownAndAnswersAgainNow() {
    breaker.failed(new RuntimeException("Redis went away"), Breaker.FAILURES_TO_OPEN);
    clock.advance(Breaker.FIRST_PAUSE_MILLIS * 1000);
    assertThat(breaker.pass()).isEqualTo(Breaker.Pass.PROBE);
    breaker.probeSucceeded(1);
    assertThat(breaker.isOpen()).isFalse();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aShortWindowTheBreakerClosedInIsDecidedLocallyToItsEndThenByRedis() {
    Counters perSecond = store.counters("s", Algorithm.FIXED_WINDOW, SECOND);
    Quota ten = Quota.of(10, SECOND, 10);

    Permit first = take(perSecond, ten, OnError.FAIL_OPEN);
    assertThat(first.decidedLocally()).isTrue();
    assertThat(first.verdict().allowed()).as("this JVM's share: 10 ÷ 2").isTrue();
    assertThat(asked()).as("Redis, in the window its breaker closed in").isZero();
    for (int i = 1; i < 5; i++) {
      take(perSecond, ten, OnError.FAIL_OPEN);
    }
    Permit sixth = take(perSecond, ten, OnError.FAIL_OPEN);
    assertThat(sixth.verdict().allowed()).as("the share of 5 is used up").isFalse();
    assertThat(asked()).isZero();

    clock.advance(SECOND - 400_000 - 1);
    take(perSecond, ten, OnError.FAIL_OPEN);
    assertThat(asked()).as("the last microsecond of that window").isZero();
    clock.advance(1);
    take(perSecond, ten, OnError.FAIL_OPEN);
    assertThat(asked()).as("the next window is Redis's").isEqualTo(1);
  }

  @Test
  void aSlidingWindowIsHeldLikeAFixedOne() {
    Counters sliding = store.counters("sl", Algorithm.SLIDING_WINDOW, 2 * SECOND);
    take(sliding, Quota.of(10, 2 * SECOND, 10), OnError.FAIL_OPEN);
    assertThat(asked()).isZero();
  }

  /** Longer than a breaker's longest pause: the handover's charge has to do. */
  @Test
  void aWindowLongerThanTheHoldGoesToRedisAtOnce() {
    Counters perMinute = store.counters("m", Algorithm.FIXED_WINDOW, MINUTE);
    take(perMinute, Quota.of(10, MINUTE, 10), OnError.FAIL_OPEN);
    assertThat(asked()).isEqualTo(1);
  }

  /** Its local share keeps a rate, with no window to end. */
  @Test
  void aBucketGoesToRedisAtOnce() {
    Counters bucket = store.counters("t", Algorithm.TOKEN_BUCKET, SECOND);
    take(bucket, Quota.of(10, SECOND, 10), OnError.FAIL_OPEN);
    assertThat(asked()).isEqualTo(1);
  }

  /** Decided locally, a fail_closed rule would deny what Redis may allow. */
  @Test
  void aRequestAFailClosedRuleAlsoDecidesGoesToRedisAtOnce() {
    Counters perSecond = store.counters("s", Algorithm.FIXED_WINDOW, SECOND);
    Counters closed = store.counters("c", Algorithm.FIXED_WINDOW, SECOND);
    Quota ten = Quota.of(10, SECOND, 10);
    store.acquire(
        Arrays.asList(
            new Permit(perSecond, "ip=1", ten, 1, OnError.FAIL_OPEN),
            new Permit(closed, "ip=1", ten, 1, OnError.FAIL_CLOSED)));
    assertThat(asked()).isEqualTo(1);
  }

  /** A shadow rule's permit, taken alone, is held the same. */
  @Test
  void aPermitTakenAloneIsHeldToo() {
    Counters trial = store.counters("trial", Algorithm.FIXED_WINDOW, SECOND);
    Permit alone = new Permit(trial, "ip=2", Quota.of(10, SECOND, 10), 1, OnError.FAIL_OPEN);
    store.acquire(Collections.<Permit>emptyList(), Collections.singletonList(alone));
    assertThat(alone.decidedLocally()).isTrue();
    assertThat(asked()).isZero();
  }

  private Permit take(Counters counters, Quota quota, OnError onError) {
    Permit permit = new Permit(counters, "ip=1", quota, 1, onError);
    store.acquire(Collections.singletonList(permit));
    return permit;
  }

  /** Round trips this test's thread asked for: a decision's own call is sent by its caller. */
  private int asked() {
    return redis.pipelinesOf(Thread.currentThread());
  }
}
