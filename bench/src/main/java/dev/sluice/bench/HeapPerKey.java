package dev.sluice.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.sluice.core.Limiter;
import dev.sluice.store.MemoryStore;
import io.github.bucket4j.Bucket;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Heap kept per idle key: fills an empty limiter with N distinct client IPs, one request each, and
 * divides the growth of the live heap (measured after full GCs) by N. Everything a key keeps alive
 * counts: its map node, its share of the map's table, the identity string and the state.
 *
 * <p>Run it with a fixed heap and a stop-the-world collector, e.g. {@code java -Xms2g -Xmx2g
 * -XX:+UseParallelGC -cp bench/target/benchmarks.jar dev.sluice.bench.HeapPerKey}, so that {@code
 * System.gc()} is a full, compacting collection and "used" means "live".
 */
public final class HeapPerKey {
  private HeapPerKey() {}

  public static void main(String[] args) throws Exception {
    int[] sizes =
        args.length == 0
            ? new int[] {100_000, 1_000_000}
            : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    describeJvm();
    System.out.printf("%-9s %10s %14s %12s%n", "limiter", "keys", "heap growth", "bytes/key");
    for (int n : sizes) {
      report("Sluice", n, measure(n, HeapPerKey::sluice));
      report("Bucket4j", n, measure(n, HeapPerKey::bucket4j));
    }
  }

  /** An empty Sluice limiter; adding key i lets one request from IP i through the real rules. */
  private static IntPredicate sluice(int n) {
    MemoryStore store = BenchConfig.store(n);
    Limiter limiter;
    try {
      limiter = BenchConfig.limiter("heap.yaml", store);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return i -> {
      boolean allowed = limiter.decide(new FixedRequest("GET", "/", Identities.ipv4(i))).allowed();
      if (i == n - 1 && store.keyCount() != n) {
        throw new IllegalStateException("the store holds " + store.keyCount() + " keys, not " + n);
      }
      return allowed;
    };
  }

  /** Bucket4j's local buckets keyed by the same identity text, 100 per minute like heap.yaml. */
  private static IntPredicate bucket4j(int n) {
    ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
    return i ->
        buckets
            .computeIfAbsent(
                Identities.ipIdentity(i),
                k ->
                    Bucket.builder()
                        .addLimit(b -> b.capacity(100).refillGreedy(100, Duration.ofMinutes(1)))
                        .build())
            .tryConsume(1);
  }

  /** Bytes of live heap added by {@code n} keys, the empty limiter itself excluded. */
  private static long measure(int n, IntFunction<IntPredicate> emptyLimiter) {
    IntPredicate limiter = emptyLimiter.apply(n);
    long before = liveHeap();
    for (int i = 0; i < n; i++) {
      if (!limiter.test(i)) {
        throw new IllegalStateException("key " + i + " was denied its first request");
      }
    }
    long after = liveHeap();
    Reference.reachabilityFence(limiter);
    return after - before;
  }

  private static void report(String name, int n, long bytes) {
    System.out.printf(
        Locale.ROOT, "%-9s %,10d %,12d B %12.1f%n", name, n, bytes, bytes / (double) n);
  }

  /** Used heap after several full collections: a single one may leave finalizable or soft data. */
  private static long liveHeap() {
    for (int i = 0; i < 5; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Object sizes depend on these, so every report says what they were. */
  private static void describeJvm() {
    HotSpotDiagnosticMXBean hotspot =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    StringBuilder gcs = new StringBuilder();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcs.append(gcs.length() == 0 ? "" : ", ").append(gc.getName());
    }
    System.out.printf(
        "JVM %s %s, max heap %d MiB, GC %s, UseCompressedOops=%s%n",
        System.getProperty("java.vm.name"),
        Runtime.version(),
        Runtime.getRuntime().maxMemory() >> 20,
        gcs,
        hotspot.getVMOption("UseCompressedOops").getValue());
  }
}
