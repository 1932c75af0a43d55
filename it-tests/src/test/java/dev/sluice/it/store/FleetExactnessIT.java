package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.jvm.ChildJvm;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.it.store.FleetMember.Result;
import dev.sluice.store.redis.RedisStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exactness across a fleet: many stores, each with its own connection pool as separate JVMs have,
 * and then separate JVM processes, hammer one key from many threads on production Redis TIME. With
 * one window and no refill in play, every algorithm must admit exactly the limit: fixed window and
 * token bucket because Redis counts atomically, sliding window because its previous window is
 * empty, so its estimate is the current count alone (and it must never exceed the limit anyway).
 *
 * <p>The window is about a day, chosen so Redis's now is at least 10 minutes from its edges: no
 * boundary is crossed, and the bucket earns one token per 173 s, far longer than a run.
 */
class FleetExactnessIT {
  private static final int LIMIT = 500;
  private static final int ATTEMPTS = 2_000;
  private static final int THREADS = 4;
  private static final long DAY = 86_400 * QuietWindow.SECOND;
  private static final long MARGIN = 600 * QuietWindow.SECOND;
  private static final Duration CHILD_READY = Duration.ofSeconds(30);
  private static final Duration CHILD_RUN = Duration.ofSeconds(60);

  private static RedisServer redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  /** Four stores in this JVM, four threads each: 32,000 attempts at a limit of 500. */
  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void fourStoresAdmitExactlyTheLimit(Algorithm algorithm) throws Exception {
    String prefix = "fleet-stores-" + algorithm;
    long window = QuietWindow.lengthFor(redis, DAY, MARGIN);
    List<RedisStore> stores = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        stores.add(FleetMember.open(redis.host(), redis.port(), prefix));
        FleetMember.warmUp(stores.get(i), algorithm, window);
      }
      Result result =
          FleetMember.hammer(
              stores, algorithm, Quota.of(LIMIT, window, LIMIT), THREADS, ATTEMPTS, 0);
      System.out.printf(
          "FleetExactnessIT %s: 4 stores x %d threads x %d attempts: %s%n",
          algorithm, THREADS, ATTEMPTS, result);
      assertThat(result.attempts).as("attempts made in time").isEqualTo(4L * THREADS * ATTEMPTS);
      assertThat(result.admitted).as("%s admitted", algorithm).isLessThanOrEqualTo(LIMIT);
      assertThat(result.admitted).as("%s admitted", algorithm).isEqualTo(LIMIT);
      // Not a one-sided race: the stores really competed for the permits.
      assertThat(Arrays.stream(result.perStore).filter(n -> n > 0).count()).isGreaterThan(1);
      assertSharedKeyHoldsTheLimit(prefix, algorithm, window);
    } finally {
      stores.forEach(RedisStore::close);
    }
  }

  /**
   * Two child JVMs (four threads each) and this one (four threads) race for the same key, released
   * together once every member has connected: the admitted counts of all three processes add up to
   * exactly the limit.
   */
  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void twoOtherJvmsAndThisOneAdmitExactlyTheLimitInTotal(Algorithm algorithm) throws Exception {
    String prefix = "fleet-jvms-" + algorithm;
    long window = QuietWindow.lengthFor(redis, DAY, MARGIN);
    List<ChildJvm> children = new ArrayList<>();
    try (RedisStore store = FleetMember.open(redis.host(), redis.port(), prefix)) {
      for (int i = 0; i < 2; i++) {
        children.add(
            ChildJvm.start(
                "fleet member " + i,
                FleetMember.class,
                redis.host(),
                Integer.toString(redis.port()),
                prefix,
                algorithm.name(),
                Integer.toString(LIMIT),
                Integer.toString(ATTEMPTS),
                Integer.toString(THREADS),
                Long.toString(window)));
      }
      FleetMember.warmUp(store, algorithm, window);
      for (ChildJvm child : children) {
        child.awaitLine("ready", CHILD_READY);
      }
      // All three start at one instant of this machine's clock, however late a child reads "go".
      long startAt = System.currentTimeMillis() + 500;
      for (ChildJvm child : children) {
        child.send("go " + startAt);
      }
      Result here =
          FleetMember.hammer(
              List.of(store),
              algorithm,
              Quota.of(LIMIT, window, LIMIT),
              THREADS,
              ATTEMPTS,
              startAt);
      List<Result> all = new ArrayList<>(List.of(here));
      for (ChildJvm child : children) {
        all.add(Result.parse(child.awaitLine("admitted ", CHILD_RUN)));
        child.awaitSuccess(CHILD_RUN);
      }
      long total = all.stream().mapToLong(r -> r.admitted).sum();
      System.out.printf(
          "FleetExactnessIT %s: 3 JVMs x %d threads x %d attempts: this JVM %s; children %s, %s;"
              + " total admitted %d%n",
          algorithm, THREADS, ATTEMPTS, here, all.get(1), all.get(2), total);
      for (Result r : all) {
        assertThat(r.attempts).as("attempts of %s", r).isEqualTo((long) THREADS * ATTEMPTS);
      }
      assertThat(total).as("%s admitted by 3 JVMs", algorithm).isLessThanOrEqualTo(LIMIT);
      assertThat(total).as("%s admitted by 3 JVMs", algorithm).isEqualTo(LIMIT);
      assertThat(all.stream().filter(r -> r.admitted > 0).count()).isGreaterThan(1);
      assertSharedKeyHoldsTheLimit(prefix, algorithm, window);
    } finally {
      children.forEach(ChildJvm::close);
    }
  }

  /**
   * Redis's own record agrees with what the clients were told: the shared key holds exactly the
   * limit taken (for the sliding window: nothing in the previous window, the limit in the current
   * one).
   */
  private static void assertSharedKeyHoldsTheLimit(String prefix, Algorithm algorithm, long window)
      throws Exception {
    try (RedisProbe probe = redis.probe()) {
      String key = RedisKeys.key(prefix, FleetMember.IDENTITY, FleetMember.RULE, algorithm, window);
      String state = (String) probe.call("GET", key);
      long now = QuietWindow.redisMicros(redis);
      long index = now / window;
      switch (algorithm) {
        case FIXED_WINDOW:
          assertThat(state).isEqualTo(RedisKeys.fixedState(index, LIMIT));
          break;
        case SLIDING_WINDOW:
          assertThat(state).isEqualTo(RedisKeys.slidingState(index, 0, LIMIT));
          break;
        default:
          // The bucket's full-again instant: a whole bucket spent, minus what a run can refill.
          long emission = Quota.of(LIMIT, window, LIMIT).emissionMicros();
          long ahead = Long.parseLong(state) - now;
          assertThat(ahead).isBetween(LIMIT * emission - emission, LIMIT * emission);
      }
    }
  }
}
