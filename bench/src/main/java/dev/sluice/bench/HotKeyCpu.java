package dev.sluice.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.sluice.http.Enforcer;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * CPU a request costs when many threads decide for one client at once, as AgentLoad's 32 Tomcat
 * threads do for its one client: {@code THREADS} threads each run {@code REQUESTS} {@link
 * AdmitBench} requests from 127.0.0.1 on one enforcer, and the process's CPU time over them is
 * divided by the requests. CPU rather than time, so that other work on a shared machine matters
 * less; but contention itself depends on how the threads are scheduled, so compare runs of the
 * same moment only. Prints rounds 3 to 8 (the first two warm the JIT up) and their median.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.sluice.bench.HotKeyCpu [THREADS [REQUESTS]]}
 * (32 and 20,000 by default).
 */
public final class HotKeyCpu {
  private HotKeyCpu() {}

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 32;
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    Enforcer enforcer = AdmitBench.enforcer();
    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    List<Double> measured = new ArrayList<>();
    for (int round = 0; round < 8; round++) {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> running = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Thread thread = new Thread(() -> run(enforcer, start, requests), "hot-key-" + t);
        thread.start();
        running.add(thread);
      }
      long cpu = os.getProcessCpuTime();
      long wall = System.nanoTime();
      start.countDown();
      for (Thread thread : running) {
        thread.join();
      }
      double total = (double) threads * requests;
      double cpuPerRequest = (os.getProcessCpuTime() - cpu) / total;
      if (round >= 2) {
        measured.add(cpuPerRequest);
        System.out.printf(
            "round %d: %.0f ns CPU a request, %.0f ns wall%n",
            round + 1, cpuPerRequest, (System.nanoTime() - wall) / total);
      }
    }
    measured.sort(null);
    System.out.printf(
        "%d threads, one client: median %.0f ns CPU a request%n",
        threads, (measured.get(2) + measured.get(3)) / 2);
  }

  private static void run(Enforcer enforcer, CountDownLatch start, int requests) {
    try {
      start.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    for (int i = 0; i < requests; i++) {
      if (!AdmitBench.admit(enforcer, "127.0.0.1")) {
        throw new IllegalStateException("a request was denied: the rule should allow every one");
      }
    }
  }
}
