package dev.sluice.store;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Many threads on one key: the store admits exactly the limit, never more. */
class MemoryStoreConcurrencyTest {
  private static final int THREADS = 8;
  private static final int ATTEMPTS_PER_THREAD = 5_000;
  private static final long LIMIT = 1_000;

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final MemoryStore store = new MemoryStore(clock, 1_000, 0);

  /** Runs {@code attempt} from every thread at once; returns how many returned true. */
  private int hammer(Attempt attempt) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger admitted = new AtomicInteger();
    try {
      Future<?>[] done = new Future<?>[THREADS];
      for (int t = 0; t < THREADS; t++) {
        done[t] =
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
                    if (attempt.run()) {
                      admitted.incrementAndGet();
                    }
                  }
                  return null;
                });
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return admitted.get();
  }

  private interface Attempt {
    boolean run();
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void oneHotKeyAdmitsExactlyTheLimit(Algorithm algorithm) throws Exception {
    Counters counters = store.counters("hot", algorithm, 60 * SECOND);
    Quota quota = Quota.of(LIMIT, 60 * SECOND, LIMIT);
    int admitted =
        hammer(
            () -> {
              Permit permit = new Permit(counters, "ip=10.0.0.1", quota, 1);
              store.acquire(Collections.singletonList(permit));
              return permit.verdict().allowed();
            });
    assertThat(admitted).isEqualTo(LIMIT);
  }

  /**
   * A one-rule request may commit what its lock-free look decided (PermitInFlight.takenOnItsLook):
   * here it races every other writer of its segment at once, each of which would lose that take if
   * the look's commit did not exclude it. Threads by role: the hot key alone; the hot key with a
   * second rule (the locked, all-or-nothing way); the hot key then a new identity, whose insertions
   * grow and rewrite the segments' arrays; the hot key with a sweep now and then.
   */
  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void aHotKeyLosesNoTakeToLockedRequestsInsertionsOrSweeps(Algorithm algorithm)
      throws Exception {
    MemoryStore roomy = new MemoryStore(clock, 1_000_000, 0);
    Counters hot = roomy.counters("hot", algorithm, 60 * SECOND);
    Counters other = roomy.counters("other", Algorithm.TOKEN_BUCKET, 60 * SECOND);
    // Half the attempts are admitted: takes race each other all along, not just for a moment.
    long limit = THREADS * ATTEMPTS_PER_THREAD / 2;
    Quota quota = Quota.of(limit, 60 * SECOND, limit);
    Quota ample = Quota.of(1_000_000, 60 * SECOND, 1_000_000);
    AtomicInteger threads = new AtomicInteger();
    ThreadLocal<Integer> role = ThreadLocal.withInitial(threads::getAndIncrement);
    AtomicInteger newcomers = new AtomicInteger();
    AtomicInteger sweeperAttempts = new AtomicInteger();
    int admitted =
        hammer(
            () -> {
              Permit permit = new Permit(hot, "ip=10.0.0.1", quota, 1);
              int mine = role.get() % 4;
              if (mine == 1) {
                roomy.acquire(Arrays.asList(permit, new Permit(other, "global", ample, 1)));
              } else {
                roomy.acquire(Collections.singletonList(permit));
              }
              if (mine == 2) {
                String newcomer = "ip=new-" + newcomers.incrementAndGet();
                roomy.acquire(Collections.singletonList(new Permit(hot, newcomer, quota, 1)));
              } else if (mine == 3 && sweeperAttempts.incrementAndGet() % 16 == 0) {
                roomy.sweep();
              }
              return permit.verdict().allowed();
            });
    assertThat(admitted).isEqualTo(limit);
    assertThat(roomy.keyCount()).isGreaterThan(THREADS / 4 * ATTEMPTS_PER_THREAD);
  }

  @Test
  void multiRuleRequestsStayAllOrNothingUnderContention() throws Exception {
    Counters perIp = store.counters("ip", Algorithm.FIXED_WINDOW, 60 * SECOND);
    Counters global = store.counters("global", Algorithm.TOKEN_BUCKET, 60 * SECOND);
    Quota ipQuota = Quota.of(LIMIT, 60 * SECOND, LIMIT);
    Quota globalQuota = Quota.of(LIMIT / 2, 60 * SECOND, LIMIT / 2);
    AtomicInteger thread = new AtomicInteger();
    ThreadLocal<String> ip = ThreadLocal.withInitial(() -> "ip=" + thread.getAndIncrement() % 2);
    int admitted =
        hammer(
            () -> {
              Permit a = new Permit(perIp, ip.get(), ipQuota, 1);
              Permit b = new Permit(global, "global", globalQuota, 1);
              store.acquire(Arrays.asList(a, b));
              return a.verdict().allowed() && b.verdict().allowed();
            });
    assertThat(admitted).isEqualTo(LIMIT / 2);
    // Both IPs together took exactly what the global bucket admitted, not a permit more.
    int left = 0;
    for (String each : new String[] {"ip=0", "ip=1"}) {
      Permit probe = new Permit(perIp, each, ipQuota, 1);
      store.acquire(Collections.singletonList(probe));
      left += probe.verdict().remaining() + 1;
    }
    assertThat(left).isEqualTo(2 * LIMIT - LIMIT / 2);
  }
}
