package dev.sluice.bench.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One bounded phase against one contender: {@code threads} threads take permits for identities
 * drawn uniformly from {@code keys}, through a warmup and then a measured interval. Only calls that
 * start inside the measured interval are counted and timed.
 *
 * <p>Closed loop ({@code rate <= 0}): each thread sends its next call as soon as the previous one
 * returns; the count is the maximum throughput at that concurrency. Open loop: calls are scheduled
 * at a fixed total {@code rate}, thread {@code t} owning every {@code threads}-th slot, and latency
 * runs from the slot's intended start, so a stall delays (and is charged to) every call behind it
 * instead of quietly lowering the load (no coordinated omission). Service time, from the actual
 * start, is recorded too.
 */
final class LoadRun {
  private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final Contender contender;
  private final int threads;
  private final int keys;
  private final double rate;
  private final long warmupNanos;
  private final long measureNanos;

  LoadRun(Contender contender, int threads, int keys, double rate, Duration warmup, Duration run) {
    this.contender = contender;
    this.threads = threads;
    this.keys = keys;
    this.rate = rate;
    this.warmupNanos = warmup.toNanos();
    this.measureNanos = run.toNanos();
  }

  /**
   * What one phase measured: calls timed, of which errors (thrown, or denied: nothing should be),
   * calls in the whole phase including warmup, and latencies in nanoseconds.
   */
  record Result(
      long calls,
      long errors,
      long allCalls,
      double seconds,
      Histogram latency,
      Histogram service) {
    /** Allowed decisions per second of the measured interval. */
    double perSecond() {
      return (calls - errors) / seconds;
    }
  }

  /**
   * 100 ns to 60 s at 2 significant digits (1 % resolution): 24 KB each, small enough that 128 of
   * them do not burden the garbage collector of the JVM that runs the limiter being measured.
   */
  private static Histogram histogram() {
    return new Histogram(100, MAX_NANOS, 2);
  }

  Result run() throws InterruptedException {
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Worker> workers = new ArrayList<>();
    long[] start = new long[1];
    for (int t = 0; t < threads; t++) {
      Worker worker = new Worker(t, ready, go, start);
      workers.add(worker);
      worker.start();
    }
    ready.await();
    System.gc(); // every phase starts on a clean heap: no collection of the last one's garbage
    start[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
    go.countDown();
    Histogram latency = histogram();
    Histogram service = histogram();
    long calls = 0;
    long errors = 0;
    long all = 0;
    for (Worker worker : workers) {
      worker.join();
      latency.add(worker.latency);
      service.add(worker.service);
      calls += worker.calls;
      errors += worker.errors;
      all += worker.all;
    }
    return new Result(calls, errors, all, measureNanos / 1e9, latency, service);
  }

  private final class Worker extends Thread {
    final Histogram latency = histogram();
    final Histogram service = histogram();
    private final int index;
    private final CountDownLatch ready;
    private final CountDownLatch go;
    private final long[] start;
    long calls;
    long errors;
    long all;

    Worker(int index, CountDownLatch ready, CountDownLatch go, long[] start) {
      super("load-" + index);
      this.index = index;
      this.ready = ready;
      this.go = go;
      this.start = start;
    }

    @Override
    public void run() {
      ready.countDown();
      try {
        go.await();
      } catch (InterruptedException e) {
        return;
      }
      long begin = start[0];
      long measureFrom = begin + warmupNanos;
      long end = measureFrom + measureNanos;
      ThreadLocalRandom random = ThreadLocalRandom.current();
      double interval = rate > 0 ? 1e9 * threads / rate : 0;
      for (long k = 0; ; k++) {
        long intended = rate > 0 ? begin + (long) ((k + index / (double) threads) * interval) : 0;
        long now = System.nanoTime();
        if (rate > 0) {
          while (now < intended) {
            LockSupport.parkNanos(intended - now);
            now = System.nanoTime();
          }
        } else {
          intended = now;
        }
        if (intended >= end) {
          return;
        }
        boolean allowed;
        try {
          allowed = contender.take(random.nextInt(keys));
        } catch (RuntimeException e) {
          allowed = false;
        }
        long done = System.nanoTime();
        all++;
        if (intended >= measureFrom) {
          calls++;
          if (allowed) {
            latency.recordValue(Math.min(MAX_NANOS, done - intended));
            service.recordValue(Math.min(MAX_NANOS, done - now));
          } else {
            errors++; // a failure decided locally in microseconds: not a latency of Redis
          }
        }
      }
    }
  }
}
