package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.it.store.DecisionLoad.Decision;
import dev.sluice.it.store.DecisionLoad.Lane;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Kills the master behind a busy identity while two stores (two JVMs of a fleet of two) decide for
 * it without pause, and holds them to the product's promise: no exception reaches the caller, a
 * decision is made all along (locally while Redis cannot answer), and within seconds of the
 * promotion decisions come from Redis again, on the promoted master, shared by the fleet.
 */
final class FailoverDrill {
  /** How soon after the promotion every store must decide through Redis again. */
  static final Duration RESUME_BOUND = Duration.ofSeconds(10);

  /** Local decisions must have stopped this long for a store to count as back on Redis. */
  private static final Duration QUIET = Duration.ofSeconds(2);

  /** The most a caller may wait with no decision made at all; Redis's budget is 200 ms. */
  private static final Duration LONGEST_SILENCE = Duration.ofSeconds(1);

  /** The fault: kill the master serving the busy identity, then wait for its replacement. */
  interface Failover {
    void kill();

    void awaitPromotion();
  }

  private FailoverDrill() {}

  /**
   * Runs the drill; {@code get} reads a key from whichever server is master when it is called. A
   * {@code bystander} identity (on a master that stays up) adds a lane on store A, or none if null;
   * it must never be decided locally.
   */
  static void run(
      String label,
      Store a,
      Store b,
      String prefix,
      String busy,
      String bystander,
      Failover failover,
      Function<String, String> get)
      throws InterruptedException {
    // Fixed windows of about 100 days, chosen so that now is mid-window: no count resets mid-test.
    long window = RedisKeys.windowFarFromItsEdges();
    List<Lane> lanes = new ArrayList<>();
    lanes.add(new Lane("A1", a, a.counters("busy", Algorithm.FIXED_WINDOW, window), busy));
    lanes.add(new Lane("A2", a, a.counters("busy", Algorithm.FIXED_WINDOW, window), busy));
    lanes.add(new Lane("B1", b, b.counters("busy", Algorithm.FIXED_WINDOW, window), busy));
    int busyLanes = lanes.size();
    if (bystander != null) {
      lanes.add(
          new Lane("A-other", a, a.counters("busy", Algorithm.FIXED_WINDOW, window), bystander));
    }
    String key = RedisKeys.key(prefix, busy, "busy", Algorithm.FIXED_WINDOW, window);
    DecisionLoad load = new DecisionLoad(lanes, window, Duration.ofSeconds(120));
    long kill;
    long promoted;
    long atPromotion;
    List<Decision> log;
    load.start();
    try {
      assertThat(waitFor(Duration.ofSeconds(10), () -> load.onRedis(50, Duration.ZERO)))
          .as(
              "%s: every lane decides through Redis before the kill; failures %s",
              label, load.failures())
          .isTrue();
      kill = System.nanoTime();
      failover.kill();
      failover.awaitPromotion();
      promoted = System.nanoTime();
      atPromotion = RedisKeys.count(get.apply(key));
      waitFor(RESUME_BOUND.plus(QUIET), () -> load.onRedis(50, QUIET));
    } finally {
      log = load.stop();
    }
    long stopped = System.nanoTime();

    // Everything is measured and printed first, so a failure comes with its timeline.
    List<DecisionLoad.Resumption> results = new ArrayList<>();
    for (int lane = 0; lane < lanes.size(); lane++) {
      results.add(DecisionLoad.Resumption.of(lanes.get(lane).name(), lane, log, kill));
    }
    long silence = DecisionLoad.longestSilenceNanos(log, kill, stopped);
    long end = RedisKeys.count(get.apply(key));
    // Counts of the busy key only: the bystander's key keeps counts of its own.
    List<Decision> busyLog = log.stream().filter(d -> d.lane() < busyLanes).toList();
    long highest = busyLog.stream().mapToLong(Decision::count).max().orElse(0);
    long highestBeforeKill =
        busyLog.stream()
            .filter(d -> d.startNanos() - kill < 0)
            .mapToLong(Decision::count)
            .max()
            .orElse(0);
    long latestResume = 0;
    StringBuilder lines = new StringBuilder();
    for (DecisionLoad.Resumption r : results) {
      latestResume =
          Math.max(latestResume, r.resumed() == null ? Long.MAX_VALUE : r.resumed().endNanos());
      lines.append(
          String.format(
              "%n  %s: first local decision %s after the kill, Redis again %s",
              r.name(),
              r.firstLocalAfterKill() == null
                  ? "never"
                  : millis(r.firstLocalAfterKill().startNanos() - kill),
              r.resumed() == null
                  ? "never"
                  : millis(r.resumed().endNanos() - kill)
                      + " after the kill ("
                      + millis(r.resumed().endNanos() - promoted)
                      + " after the promotion)"));
    }
    System.out.printf(
        "[%s failover] promotion confirmed %s after the kill; every lane on Redis "
            + "again %s after the kill (%s after the promotion); longest silence %s; %d decisions, "
            + "%d local; highest count before the kill %d, on the promoted master %d (%d lost), "
            + "at the end %d%s%n",
        label,
        millis(promoted - kill),
        latestResume == Long.MAX_VALUE ? "never" : millis(latestResume - kill),
        latestResume == Long.MAX_VALUE ? "-" : millis(latestResume - promoted),
        millis(silence),
        log.size(),
        log.stream().filter(d -> !d.fromRedis()).count(),
        highestBeforeKill,
        atPromotion,
        Math.max(0, highestBeforeKill - atPromotion),
        end,
        lines);

    assertThat(load.failures()).as("%s: what reached a caller", label).isEmpty();
    for (int lane = 0; lane < results.size(); lane++) {
      DecisionLoad.Resumption r = results.get(lane);
      if (lane < busyLanes) {
        assertThat(r.firstLocalAfterKill())
            .as("%s %s: decided locally while its master was down", label, r.name())
            .isNotNull();
      } else {
        // Each master has a breaker of its own: one master's failure is not the others'.
        assertThat(r.firstLocalAfterKill())
            .as("%s %s: decided locally though its master stayed up", label, r.name())
            .isNull();
      }
      assertThat(r.resumed())
          .as("%s %s: Redis decides again after the last local decision", label, r.name())
          .isNotNull();
      assertThat(Duration.ofNanos(r.resumed().endNanos() - promoted))
          .as("%s %s: back on Redis within %s of the promotion", label, r.name(), RESUME_BOUND)
          .isLessThanOrEqualTo(RESUME_BOUND);
    }
    assertThat(Duration.ofNanos(silence))
        .as("%s: longest time without a decision", label)
        .isLessThanOrEqualTo(LONGEST_SILENCE);
    // The promoted master counts again, exactly: its key holds the highest count a verdict
    // reported, and once every lane was back no count was handed out twice.
    assertThat(end)
        .as("%s: the key advanced on the promoted master", label)
        .isGreaterThan(atPromotion);
    assertThat(end).as("%s: the key holds the highest count reported", label).isEqualTo(highest);
    long allBack = results.stream().mapToLong(r -> r.resumed().startNanos()).max().orElseThrow();
    Set<Long> seen = new HashSet<>();
    for (Decision d : busyLog) {
      if (d.fromRedis() && d.startNanos() - allBack > 0) {
        assertThat(seen.add(d.count()))
            .as("%s: count %d handed out twice", label, d.count())
            .isTrue();
      }
    }
    enforcedFleetWide(label, a, b, prefix, busy, window, get);
  }

  /**
   * A limit of 20 taken whole by store A alone, then denied to store B: a local share (10 each)
   * could do neither, so the two stores share the count in Redis again.
   */
  private static void enforcedFleetWide(
      String label,
      Store a,
      Store b,
      String prefix,
      String busy,
      long window,
      Function<String, String> get) {
    Quota twenty = Quota.of(20, window, 20);
    Counters inA = a.counters("fleet", Algorithm.FIXED_WINDOW, window);
    Counters inB = b.counters("fleet", Algorithm.FIXED_WINDOW, window);
    for (int i = 0; i < 20; i++) {
      Verdict v = take(a, inA, busy, twenty);
      assertThat(v.allowed()).as("%s: A's take %d of 20", label, i + 1).isTrue();
      assertThat(v.remaining()).as("%s: A's take %d of 20", label, i + 1).isEqualTo(19 - i);
    }
    assertThat(take(a, inA, busy, twenty).allowed()).as("%s: A's 21st", label).isFalse();
    assertThat(take(b, inB, busy, twenty).allowed()).as("%s: B after A took all", label).isFalse();
    assertThat(
            RedisKeys.count(
                get.apply(RedisKeys.key(prefix, busy, "fleet", Algorithm.FIXED_WINDOW, window))))
        .as("%s: the shared count", label)
        .isEqualTo(20);
  }

  private static Verdict take(Store store, Counters counters, String identity, Quota quota) {
    Permit permit = new Permit(counters, identity, quota, 1);
    store.acquire(Collections.singletonList(permit));
    return permit.verdict();
  }

  /** Polls {@code condition} every 50 ms for at most {@code timeout}; true if it held. */
  static boolean waitFor(Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  private static String millis(long nanos) {
    return nanos / 1_000_000 + " ms";
  }
}
