package dev.sluice.bench;

import io.github.bucket4j.Bucket;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.openjdk.jmh.annotations.Param;

/**
 * The baseline: Bucket4j's local (lock-free) bucket, one per identity in a {@link
 * ConcurrentHashMap} looked up on every call, as an application keying Bucket4j by client would.
 */
public class Bucket4jBucketBench extends BucketBench {
  /**
   * {@code probe}: {@code tryConsumeAndReturnRemaining}, which also answers how many tokens remain
   * and how long to wait, as a limiter that sends rate-limit headers must (Sluice always does).
   * {@code bare}: {@code tryConsume}, a yes or no only.
   */
  @Param({"probe", "bare"})
  public String answer;

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
    buckets.put(
        identity,
        Bucket.builder().addLimit(b -> b.capacity(limit).refillGreedy(limit, window)).build());
  }

  @Override
  protected boolean take(int i) {
    Bucket bucket = buckets.get(identities[i]);
    return answer.equals("bare")
        ? bucket.tryConsume(1)
        : bucket.tryConsumeAndReturnRemaining(1).isConsumed();
  }
}
