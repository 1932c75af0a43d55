package dev.sluice.bench;

import io.github.bucket4j.Bucket;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The baseline: Bucket4j's local (lock-free) bucket, one per identity in a {@link
 * ConcurrentHashMap} looked up on every call, as an application keying Bucket4j by client would.
 */
public class Bucket4jBucketBench extends BucketBench {
  private ConcurrentHashMap<String, Bucket> buckets;
  private long limit;
  private Duration window;

  @Override
  protected void prepare(long limit, Duration window) {
    this.limit = limit;
    this.window = window;
    buckets = new ConcurrentHashMap<>();
  }

  @Override
  protected void add(String identity) {
    buckets.put(identity, Bucket.builder()
        .addLimit(b -> b.capacity(limit).refillGreedy(limit, window))
        .build());
  }

  @Override
  protected boolean take(int i) {
    return buckets.get(identities[i]).tryConsume(1);
  }
}
