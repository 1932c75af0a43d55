package dev.sluice.bench;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import java.time.Duration;
import java.util.List;
import org.openjdk.jmh.annotations.Param;

/**
 * {@link MemoryStore#acquire} for one rule and one identity, including the {@link Permit} the
 * limiter allocates for every request.
 */
public class SluiceBucketBench extends BucketBench {
  @Param({"TOKEN_BUCKET", "SLIDING_WINDOW", "FIXED_WINDOW"})
  public Algorithm algorithm;

  private MemoryStore store;
  private Counters counters;
  private Quota quota;

  @Override
  protected void prepare(long limit, Duration window) {
    long windowMicros = window.toNanos() / 1000;
    store = BenchConfig.store(MemoryStore.DEFAULT_MAX_KEYS);
    counters = store.counters("bench", algorithm, windowMicros);
    // burst = limit is what the config reader gives a token bucket without an explicit burst.
    quota = Quota.of(limit, windowMicros, limit);
  }

  @Override
  protected void add(String identity) {
    store.acquire(List.of(new Permit(counters, identity, quota, 1)));
  }

  @Override
  protected boolean take(int i) {
    Permit permit = new Permit(counters, identities[i], quota, 1);
    store.acquire(List.of(permit));
    return permit.verdict().allowed();
  }
}
