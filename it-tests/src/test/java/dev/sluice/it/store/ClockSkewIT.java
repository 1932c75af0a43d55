package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisStore;
import dev.sluice.store.redis.ScriptTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.JedisPooled;

/**
 * JVMs whose clocks disagree by twenty minutes still share one window and one bucket. Each store
 * gets an injected clock (10 minutes slow, right, 10 minutes fast) but counts by Redis TIME ({@link
 * ScriptTime#REDIS}): the scripts read the clock of the one server every JVM talks to, and a JVM's
 * clock is used only for remembering denials, relative to itself. So all three take from one count
 * and report the same reset and retry-after.
 *
 * <p>The window is about 2 minutes, shorter than the skew, so that if a JVM's clock leaked into
 * counting, the stores would count in different windows (or find the bucket refilled): more than
 * the limit would be admitted and retry-afters would differ by minutes, as {@link
 * #jvmClocksAsScriptTimeWouldSplitTheWindow} shows. Each window is chosen so that none of the three
 * clocks is within 20 s of a boundary.
 */
class ClockSkewIT {
  private static final long SECOND = QuietWindow.SECOND;
  private static final long SKEW = 600 * SECOND;
  private static final int LIMIT = 20;

  /** Three denials a few milliseconds apart report the same instants within this. */
  private static final long TOLERANCE = SECOND;

  private static RedisServer redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void skewedJvmsShareOneCount(Algorithm algorithm) {
    long window = QuietWindow.lengthFor(redis, 120 * SECOND, 20 * SECOND, -SKEW, 0, SKEW);
    Run run = run("skew-" + algorithm, algorithm, window, clock -> ScriptTime.REDIS);
    System.out.printf("ClockSkewIT %s, window %d s: %s%n", algorithm, window / SECOND, run);
    assertThat(run.total()).as("admitted by the -10m, 0 and +10m stores").isEqualTo(LIMIT);
    long now = QuietWindow.redisMicros(redis);
    for (Verdict denial : run.firstDenials) {
      assertThat(denial).as("each store was denied").isNotNull();
      assertThat(denial.retryAfterMicros()).isBetween(1L, window);
      if (algorithm != Algorithm.TOKEN_BUCKET) {
        // The end of Redis's current window, not of any JVM's: the skew would be 10 minutes off.
        assertThat(denial.retryAfterMicros()).isCloseTo(window - now % window, within(TOLERANCE));
      }
    }
    Verdict first = run.firstDenials.get(0);
    for (Verdict denial : run.firstDenials) {
      assertThat(denial.retryAfterMicros()).isCloseTo(first.retryAfterMicros(), within(TOLERANCE));
      assertThat(denial.resetMicros()).isCloseTo(first.resetMicros(), within(TOLERANCE));
      assertThat(denial.remaining()).isZero();
    }
  }

  /**
   * The control: the same stores timed by their own clocks (the test hook that dictates the
   * scripts' now) disagree, which shows the window is short enough for the test above to catch a
   * JVM clock leaking into counting. The slow store writes the first count in its window, the right
   * one moves the key to a later window, the fast one to a later one still; since a clock that
   * steps back keeps the stored window, all then count in the fast clock's window. So two early
   * permits are lost (admitted: the limit plus two), and each store reports the end of that window
   * by its own clock: the slow store's retry-after is twenty minutes longer than the fast one's.
   */
  @Test
  void jvmClocksAsScriptTimeWouldSplitTheWindow() {
    long window = QuietWindow.lengthFor(redis, 120 * SECOND, 20 * SECOND, -SKEW, 0, SKEW);
    Run run = run("split", Algorithm.FIXED_WINDOW, window, RedisTime::following);
    System.out.printf("ClockSkewIT control (JVM clocks as script time): %s%n", run);
    assertThat(run.total()).isEqualTo(LIMIT + 2);
    long slow = run.firstDenials.get(0).retryAfterMicros();
    long fast = run.firstDenials.get(2).retryAfterMicros();
    assertThat(slow - fast).isCloseTo(2 * SKEW, within(TOLERANCE));
  }

  /** Requests in turn from the -10m, 0 and +10m stores until each was denied once. */
  private static Run run(
      String prefix, Algorithm algorithm, long window, Function<Clock, ScriptTime> time) {
    Quota quota = Quota.of(LIMIT, window, LIMIT);
    Run run = new Run();
    List<RedisStore> stores = new ArrayList<>();
    try {
      for (long skew : new long[] {-SKEW, 0, SKEW}) {
        Clock clock = () -> Clock.SYSTEM.micros() + skew;
        stores.add(
            new RedisStore(
                new JedisPooled(redis.host(), redis.port()),
                "skew",
                prefix,
                3,
                clock,
                1_000,
                time.apply(clock),
                5_000));
      }
      List<Counters> counters = new ArrayList<>();
      for (RedisStore store : stores) {
        counters.add(store.counters("skew", algorithm, window));
        run.admitted.add(0);
        run.firstDenials.add(null);
      }
      // Bounded: at most every store's share of three limits, plus a denial each.
      for (int i = 0; i < 3 * LIMIT + 3 && run.firstDenials.contains(null); i++) {
        int s = i % 3;
        Permit permit = new Permit(counters.get(s), "ip=10.7.0.1", quota, 1);
        stores.get(s).acquire(Collections.singletonList(permit));
        if (permit.verdict().allowed()) {
          run.admitted.set(s, run.admitted.get(s) + 1);
        } else if (run.firstDenials.get(s) == null) {
          run.firstDenials.set(s, permit.verdict());
        }
      }
    } finally {
      stores.forEach(RedisStore::close);
    }
    return run;
  }

  /** Admitted counts and first denials, per store: -10m, 0, +10m. */
  private static final class Run {
    final List<Integer> admitted = new ArrayList<>();
    final List<Verdict> firstDenials = new ArrayList<>();

    int total() {
      return admitted.stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public String toString() {
      return "admitted " + admitted + " (total " + total() + "), first denials " + firstDenials;
    }
  }
}
