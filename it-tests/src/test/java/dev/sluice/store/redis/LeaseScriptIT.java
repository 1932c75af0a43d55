package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.WithStandaloneRedis;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * lease.lua on real Redis, at exact times, for each algorithm: it grants what fits up to the want,
 * near the limit one JVM's part of what fits, nothing with a retry-after once nothing fits, and
 * refund.lua gives back the unspent part of a grant as if it had never been taken.
 */
class LeaseScriptIT extends WithStandaloneRedis {
  private static final long SECOND = 1_000_000;
  private static final long WINDOW = 60 * SECOND;

  /** Ten seconds into a window. */
  private static final long T0 = 1_800_000_000L * SECOND + 10 * SECOND;

  /** Ten a minute: a bucket's token every 6 s, its burst ten. */
  private static final Quota TEN = Quota.of(10, WINDOW, 10);

  private static final AtomicInteger KEYS = new AtomicInteger();

  private static String key() {
    return "lease{" + KEYS.incrementAndGet() + "}k";
  }

  /** lease.lua's five integers: granted, remaining, reset, take or retry, window left. */
  private static List<Long> lease(Algorithm algorithm, String key, long want, int fleet, long at) {
    List<String> args = new ArrayList<>();
    args.add("=" + at);
    args.addAll(
        IdentityCall.terms(RedisCounters.codeOf(algorithm), 10, TEN.toleranceMicros(), TEN));
    args.add(Long.toString(want));
    args.add(Integer.toString(fleet));
    @SuppressWarnings("unchecked")
    List<Long> reply =
        (List<Long>) Script.LEASE.run(jedis, Collections.singletonList(key), args);
    return reply;
  }

  private static void giveBack(Algorithm algorithm, String key, long cost, long take, long at) {
    List<String> args = new ArrayList<>();
    args.add("=" + at);
    IdentityCall.addRefund(args, RedisCounters.codeOf(algorithm), TEN, cost, take);
    Script.REFUND.run(jedis, Collections.singletonList(key), args);
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void grantsWhatFitsUpToTheWantThenNothingWithARetry(Algorithm algorithm) {
    String key = key();
    List<Long> first = lease(algorithm, key, 4, 1, T0);
    assertThat(first.get(0)).isEqualTo(4);
    assertThat(first.get(1)).as("remaining").isEqualTo(6);
    List<Long> rest = lease(algorithm, key, 10, 1, T0);
    assertThat(rest.get(0)).as("only six fit").isEqualTo(6);
    assertThat(rest.get(1)).isEqualTo(0);
    List<Long> none = lease(algorithm, key, 1, 1, T0);
    assertThat(none.get(0)).isEqualTo(0);
    // A bucket's next token in 6 s; a window's end in 50 s (sliding: its first microsecond after).
    long retry = algorithm == Algorithm.TOKEN_BUCKET ? 6 * SECOND : 50 * SECOND;
    assertThat(none.get(3)).as("retry-after").isBetween(retry, retry + 1);
    long windowLeft = algorithm == Algorithm.TOKEN_BUCKET ? 0 : 50 * SECOND;
    assertThat(first.get(4)).as("window left").isEqualTo(windowLeft);
    assertThat(jedis.pttl(key)).as("written with its TTL").isPositive();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void nearTheLimitOneJvmGetsItsPartOfWhatFits(Algorithm algorithm) {
    String key = key();
    List<Long> granted = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      granted.add(lease(algorithm, key, 10, 4, T0).get(0));
    }
    // 10 fit: 10/4 = 2; then 8: 2; 6: 1; 5: 1; 4: 1; 3: at least one; 2: 1; 1: 1 ... then none.
    assertThat(granted).containsExactly(2L, 2L, 1L, 1L, 1L, 1L, 1L);
    assertThat(lease(algorithm, key, 10, 4, T0).get(0)).isEqualTo(1);
    assertThat(lease(algorithm, key, 10, 4, T0).get(0)).isEqualTo(0);
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void givingBackTheUnspentPartEndsAsIfOnlyTheSpentWereTaken(Algorithm algorithm) {
    String leased = key();
    String spentOnly = key();
    List<Long> grant = lease(algorithm, leased, 4, 1, T0);
    giveBack(algorithm, leased, 3, grant.get(3), T0 + SECOND);
    lease(algorithm, spentOnly, 1, 1, T0);
    assertThat(jedis.get(leased)).isEqualTo(jedis.get(spentOnly));
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"SLIDING_WINDOW"})
  void aSlidingGrantDyingInTheNextWindowGivesBackToThePreviousCount(Algorithm algorithm) {
    String leased = key();
    String spentOnly = key();
    List<Long> grant = lease(algorithm, leased, 4, 1, T0);
    lease(algorithm, spentOnly, 1, 1, T0);
    giveBack(algorithm, leased, 3, grant.get(3), T0 + WINDOW);
    assertThat(jedis.get(leased)).isEqualTo(jedis.get(spentOnly));
  }
}
