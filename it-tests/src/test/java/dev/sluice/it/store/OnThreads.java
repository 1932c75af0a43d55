package dev.sluice.it.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Callers at once: one body on each of a few threads, waited for a minute at most each. */
final class OnThreads {
  /** What thread number {@code thread} (from 0) does. */
  interface Body {
    void run(int thread) throws Exception;
  }

  private OnThreads() {}

  /** Runs {@code body} on {@code threads} threads at once; rethrows what any of them threw. */
  static void run(int threads, Body body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  body.run(thread);
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
