package dev.sluice.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The shape every benchmark here shares: one operation on key {@code i} of {@link #keys}, timed
 * with one thread and with two, on state that is filled before timing starts. Subclasses only say
 * how to build their limiter and how to take one permit, so Sluice and Bucket4j are driven by the
 * very same loop, cursor and checks.
 *
 * <p>Each benchmark runs in its own fork (never use {@code -f 0}): the call to {@link #take} is
 * then monomorphic and inlined as it would be in an application. The heap is fixed and touched up
 * front: otherwise the first writes to each newly grown part of the heap page-fault, which on this
 * kind of VM made single iterations 3 to 10 times slower than the rest.
 */
@State(Scope.Benchmark)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class KeyedBench {
  /** 1 is a single hot key; 100000 spreads requests over that many identities. */
  @Param({"1", "100000"})
  public int keys;

  /**
   * The order identities are visited in: a fixed shuffle. Clients do not arrive in the order their
   * state was allocated, and walking memory in allocation order would let the hardware prefetcher
   * hide the cache misses that many keys really cost.
   */
  private int[] order;

  /** Builds the limiter for {@link #keys} identities; nothing is taken yet. */
  protected abstract void build() throws Exception;

  /** Takes one permit for identity {@code i}; true if allowed. */
  protected abstract boolean take(int i);

  /** The answer every timed operation must get: the benchmark measures one path only. */
  protected abstract boolean expectAllowed();

  @Setup(Level.Trial)
  public void fill() throws Exception {
    build();
    // Touch every identity once, so timing sees existing keys, not insertions, and a "deny"
    // limit of 1 is spent before the first timed call.
    for (int i = 0; i < keys; i++) {
      take(i);
    }
    order = shuffled(keys);
  }

  static int[] shuffled(int n) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Random random = new Random(42); // the same order in every run and for every limiter
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    return order;
  }

  /**
   * Fails the run if the path changed under load (say a bucket ran dry), rather than quietly
   * reporting the cost of the other path.
   */
  @TearDown(Level.Iteration)
  public void checkPath() {
    for (int i : new int[] {0, keys - 1}) {
      if (take(i) != expectAllowed()) {
        throw new IllegalStateException(
            getClass().getSimpleName()
                + ": identity "
                + i
                + " was "
                + (expectAllowed() ? "denied" : "allowed")
                + "; the benchmark no longer measures "
                + "the path it claims to");
      }
    }
  }

  @Benchmark
  public boolean oneThread(Cursor cursor) {
    return take(order[cursor.next(keys)]);
  }

  @Benchmark
  @Threads(2)
  public boolean twoThreads(Cursor cursor) {
    return take(order[cursor.next(keys)]);
  }
}
