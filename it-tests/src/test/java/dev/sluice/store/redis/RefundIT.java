package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.WithStandaloneRedis;
import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * refund.lua undoes its own take and nothing else, however the window moved between the take and
 * the refund: each scenario runs on two keys at exact times, one with a take that is refunded, one
 * where it never happened, and the two must end alike.
 */
class RefundIT extends WithStandaloneRedis {
  private static final long SECOND = 1_000_000;
  private static final long WINDOW = 60 * SECOND;

  /** Ten seconds into a window. */
  private static final long T0 = 1_800_000_000L * SECOND + 10 * SECOND;

  private static final AtomicInteger KEYS = new AtomicInteger();

  private final MemoryStore local = new MemoryStore(Clock.SYSTEM, 100, 0);

  /** Two keys of one rule: the same takes on both, and on one a take that is refunded. */
  private final class Twins {
    final String refunded = "rf{" + KEYS.incrementAndGet() + "}r";
    final String untouched = refunded.replace("}r", "}u");
    final RedisCounters counters;
    final Quota quota;

    Twins(Algorithm algorithm, Quota quota) {
      this.counters = new RedisCounters(local.counters("r", algorithm, WINDOW));
      this.quota = quota;
    }

    void both(long now) {
      take(refunded, now);
      take(untouched, now);
    }

    IdentityCall take(String key, long now) {
      Permit permit = new Permit(counters, "ip=10.0.0.1", quota, 1);
      IdentityCall call =
          IdentityCall.byIdentity(Collections.singletonList(permit), new String[] {key}).get(0);
      call.fill(Script.ACQUIRE.run(jedis, call.keys, call.acquireArgs("=" + now)));
      assertThat(call.allowed()).as("take at %d", now).isTrue();
      return call;
    }

    void refund(IdentityCall call, long now) {
      Script.REFUND.run(jedis, call.keys, call.refundArgs("=" + now));
    }

    void assertAlike(String scenario) {
      assertThat(jedis.get(refunded)).as(scenario).isEqualTo(jedis.get(untouched));
    }
  }

  @Test
  void aFixedWindowRefundGivesBackToTheWindowOfItsTakeOnly() {
    Quota two = Quota.of(2, WINDOW, 2);
    Twins same = new Twins(Algorithm.FIXED_WINDOW, two);
    same.both(T0);
    same.refund(same.take(same.refunded, T0), T0 + SECOND);
    same.assertAlike("refunded in its own window");

    Twins rolled = new Twins(Algorithm.FIXED_WINDOW, two);
    rolled.both(T0);
    IdentityCall taken = rolled.take(rolled.refunded, T0);
    rolled.both(T0 + WINDOW);
    rolled.refund(taken, T0 + WINDOW);
    rolled.assertAlike("the next window, where another take counts, is left alone");
  }

  @Test
  void aSlidingWindowRefundGivesBackToTheWindowOfItsTakeOnly() {
    Quota three = Quota.of(3, WINDOW, 3);
    Twins same = new Twins(Algorithm.SLIDING_WINDOW, three);
    same.both(T0);
    same.refund(same.take(same.refunded, T0), T0 + SECOND);
    same.assertAlike("refunded in its own window");

    Twins rolled = new Twins(Algorithm.SLIDING_WINDOW, three);
    rolled.both(T0);
    IdentityCall taken = rolled.take(rolled.refunded, T0);
    rolled.both(T0 + WINDOW);
    rolled.refund(taken, T0 + WINDOW);
    rolled.assertAlike("refunded from the previous window's count, not the current one");

    Twins gone = new Twins(Algorithm.SLIDING_WINDOW, three);
    gone.both(T0);
    IdentityCall old = gone.take(gone.refunded, T0);
    gone.both(T0 + 2 * WINDOW);
    gone.refund(old, T0 + 2 * WINDOW);
    gone.assertAlike("a window that no longer weighs has nothing to give back");
  }

  /** A bucket of 10 a minute: a token every 6 s. */
  @Test
  void aBucketRefundGivesBackWhatOfItsTakeIsNotRefilledYet() {
    Quota ten = Quota.of(10, WINDOW, 10);
    Twins same = new Twins(Algorithm.TOKEN_BUCKET, ten);
    same.both(T0);
    same.refund(same.take(same.refunded, T0), T0);
    same.assertAlike("refunded at once");

    Twins stacked = new Twins(Algorithm.TOKEN_BUCKET, ten);
    stacked.both(T0);
    IdentityCall under = stacked.take(stacked.refunded, T0);
    stacked.both(T0 + SECOND);
    stacked.refund(under, T0 + SECOND);
    stacked.assertAlike("a later take on top of it moves down by its token");

    Twins refilled = new Twins(Algorithm.TOKEN_BUCKET, ten);
    refilled.both(T0);
    IdentityCall spent = refilled.take(refilled.refunded, T0);
    refilled.both(T0 + 20 * SECOND);
    refilled.refund(spent, T0 + 20 * SECOND);
    refilled.assertAlike("refilled before the next take: nothing of it is left to give back");
  }
}
