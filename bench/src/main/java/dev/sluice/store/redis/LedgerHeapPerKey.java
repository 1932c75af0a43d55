package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Clock;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.Locale;

/**
 * Heap a JVM keeps per key it admitted locally during an outage, for the handover: fills a {@link
 * LocalLedger} with N distinct Redis keys (one admission each, as {@code LocalShare} records them)
 * and divides the growth of the live heap after full collections by N. The ledger keeps at most
 * {@value LocalLedger#MAX_KEYS} keys, so that is the most an outage costs a JVM here, on top of the
 * local share's own memory store ({@code dev.sluice.bench.HeapPerKey}).
 *
 * <p>Run with a stop-the-world collector so that {@code System.gc()} is full: {@code java -Xms1g
 * -Xmx1g -XX:+UseParallelGC -cp bench/target/benchmarks.jar
 * dev.sluice.store.redis.LedgerHeapPerKey}. In the store's package (in the benchmarks jar, not the
 * filter) because the ledger is not public.
 */
public final class LedgerHeapPerKey {
  private LedgerHeapPerKey() {}

  public static void main(String[] args) {
    int n = args.length == 0 ? LocalLedger.MAX_KEYS : Integer.parseInt(args[0]);
    long window = 3_600_000_000L; // an hour: no sum is forgotten while the ledger fills
    Quota quota = Quota.of(1_000, window, 1_000);
    String code = RedisCounters.codeOf(Algorithm.FIXED_WINDOW);
    String[] keys = new String[n];
    for (int i = 0; i < n; i++) {
      String identity = "ip=10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255);
      keys[i] = RedisKey.of("rl", identity, "api", Algorithm.FIXED_WINDOW, window);
    }
    LocalLedger ledger = new LocalLedger(Clock.SYSTEM);
    // The JVM's first full collections leave some megabytes of start-up data that later ones free:
    // measured from a heap that has settled.
    liveHeap();
    long before = liveHeap();
    for (int i = 0; i < n; i++) {
      // The key strings exist before (a decision builds its key anyway); the ledger keeps them.
      ledger.remember(keys[i], code, quota, 1);
    }
    long after = liveHeap();
    int held = ledger.due().size();
    if (held != n) {
      throw new IllegalStateException("the ledger holds " + held + " keys, not " + n);
    }
    Reference.reachabilityFence(ledger);
    Reference.reachabilityFence(keys);
    System.out.printf(
        Locale.ROOT,
        "LocalLedger: %,d keys, heap grew %,d B: %.1f B per key (key strings not counted: %d chars"
            + " each, about %d B more if the ledger held the only reference)%n",
        n,
        after - before,
        (after - before) / (double) n,
        keys[0].length(),
        24 + 16 + (keys[0].length() + 7) / 8 * 8);
  }

  private static long liveHeap() {
    for (int i = 0; i < 5; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
