package dev.sluice.it.store;

import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Decisions made without pause by one thread per lane, each recorded with when it started and ended
 * and whether Redis or this JVM made it. That is told from the verdict alone: the quota is so large
 * it is never reached, and a store of a fleet of {@link #FLEET} decides locally on half of it, so a
 * verdict with more than half the limit remaining came from Redis. Every loop is bounded in count
 * and time, so a hung store cannot hang the build.
 */
final class DecisionLoad {
  static final long LIMIT = 10_000_000;
  static final int FLEET = 2;

  /**
   * Lets Redis and the senders breathe on a small machine: at most 2,000 decisions a second a lane.
   */
  private static final long PAUSE_NANOS = 500_000;

  private static final int MAX_PER_LANE = 200_000;

  /** One thread's work: take 1 from {@code counters} for {@code identity} through {@code store}. */
  record Lane(String name, Store store, Counters counters, String identity) {}

  /** One decision. {@code count} is the Redis count it reported, or -1 if made locally. */
  record Decision(int lane, long startNanos, long endNanos, boolean fromRedis, long count) {}

  private final List<Lane> lanes;
  private final Quota quota;
  private final long deadlineNanos;
  private final List<Thread> threads = new ArrayList<>();
  private final Queue<Decision> log = new ConcurrentLinkedQueue<>();
  private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
  private final boolean[] wentLocal;
  private final long[] lastLocalStart;
  private final long[] lastRedisStart;
  private final int[] redisSinceLocal;
  private volatile boolean stopped;

  DecisionLoad(List<Lane> lanes, long windowMicros, Duration maxRun) {
    this.lanes = List.copyOf(lanes);
    this.quota = Quota.of(LIMIT, windowMicros, LIMIT);
    this.deadlineNanos = System.nanoTime() + maxRun.toNanos();
    this.wentLocal = new boolean[lanes.size()];
    this.lastLocalStart = new long[lanes.size()];
    this.lastRedisStart = new long[lanes.size()];
    this.redisSinceLocal = new int[lanes.size()];
  }

  void start() {
    for (int i = 0; i < lanes.size(); i++) {
      int lane = i;
      Thread thread = new Thread(() -> run(lane), "decisions-" + lanes.get(i).name());
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  private void run(int lane) {
    Lane spec = lanes.get(lane);
    for (int n = 0; n < MAX_PER_LANE && !stopped && System.nanoTime() < deadlineNanos; n++) {
      Permit permit = new Permit(spec.counters(), spec.identity(), quota, 1);
      long start = System.nanoTime();
      try {
        spec.store().acquire(Collections.singletonList(permit));
      } catch (Throwable e) {
        failures.add(new AssertionError(spec.name() + ": acquire() threw", e));
        LockSupport.parkNanos(PAUSE_NANOS);
        continue;
      }
      long end = System.nanoTime();
      Verdict v = permit.verdict();
      if (!v.allowed() || v.remaining() <= 0) {
        // The quota is never reached, so a denial means the verdict was left unfilled or garbled.
        failures.add(new AssertionError(spec.name() + ": unexpected verdict " + v));
      }
      boolean fromRedis = v.remaining() > LIMIT / FLEET;
      log.add(new Decision(lane, start, end, fromRedis, fromRedis ? LIMIT - v.remaining() : -1));
      synchronized (this) {
        if (fromRedis) {
          lastRedisStart[lane] = start;
          redisSinceLocal[lane]++;
        } else {
          wentLocal[lane] = true;
          lastLocalStart[lane] = start;
          redisSinceLocal[lane] = 0;
        }
      }
      LockSupport.parkNanos(PAUSE_NANOS);
    }
  }

  /**
   * True once every lane has made at least {@code atLeast} decisions in a row through Redis, and
   * none locally for {@code quiet}.
   */
  synchronized boolean onRedis(int atLeast, Duration quiet) {
    long now = System.nanoTime();
    for (int lane = 0; lane < lanes.size(); lane++) {
      if (redisSinceLocal[lane] < atLeast
          || wentLocal[lane] && now - lastLocalStart[lane] < quiet.toNanos()) {
        return false;
      }
    }
    return true;
  }

  /** Stops every lane and returns all decisions, in order of their start. */
  List<Decision> stop() throws InterruptedException {
    stopped = true;
    for (Thread thread : threads) {
      thread.join(10_000);
      if (thread.isAlive()) {
        failures.add(new AssertionError(thread.getName() + " still deciding 10 s after stop"));
      }
    }
    List<Decision> all = new ArrayList<>(log);
    all.sort(Comparator.comparingLong(Decision::startNanos));
    return all;
  }

  /** Whatever reached a caller: an exception from acquire(), or a verdict no store should give. */
  List<Throwable> failures() {
    return new ArrayList<>(failures);
  }

  /**
   * One lane's outage: its first local decision after the kill, and its first Redis decision after
   * its last local one (from its first decision if it never went local); either may be null.
   */
  record Resumption(String name, Decision firstLocalAfterKill, Decision resumed) {
    static Resumption of(String name, int lane, List<Decision> log, long kill) {
      Decision lastLocal = null;
      Decision firstLocalAfterKill = null;
      for (Decision d : log) {
        if (d.lane() == lane && !d.fromRedis()) {
          lastLocal = d;
          if (firstLocalAfterKill == null && d.startNanos() - kill >= 0) {
            firstLocalAfterKill = d;
          }
        }
      }
      for (Decision d : log) {
        if (d.lane() == lane
            && d.fromRedis()
            && (lastLocal == null || d.startNanos() - lastLocal.startNanos() > 0)) {
          return new Resumption(name, firstLocalAfterKill, d);
        }
      }
      return new Resumption(name, firstLocalAfterKill, null);
    }
  }

  /** The longest time, within [from, to], that no lane finished a decision. */
  static long longestSilenceNanos(List<Decision> decisions, long from, long to) {
    List<Long> ends = new ArrayList<>();
    for (Decision d : decisions) {
      if (d.endNanos() >= from && d.endNanos() <= to) {
        ends.add(d.endNanos());
      }
    }
    Collections.sort(ends);
    long longest = 0;
    long previous = from;
    for (long end : ends) {
      longest = Math.max(longest, end - previous);
      previous = end;
    }
    return Math.max(longest, to - previous);
  }
}
