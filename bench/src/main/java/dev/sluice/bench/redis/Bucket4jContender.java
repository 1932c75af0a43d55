package dev.sluice.bench.redis;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.distributed.proxy.RemoteBucketBuilder;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.distributed.serialization.Mapper;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import java.time.Duration;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * Bucket4j's Jedis proxy manager (compare-and-swap: GET the state, compute with the client's clock,
 * then a Lua compare-and-set; retried until it wins) with the same limit as a greedy token bucket,
 * and the expiry its documentation recommends. One bucket proxy per identity is built up front and
 * shared by all threads, which is what {@link Optimizations#batching()} needs to merge concurrent
 * requests for the same key into one.
 *
 * <p>Its pool has a connection per thread, so Bucket4j never waits for one.
 */
final class Bucket4jContender implements Contender {
  private final JedisPool pool;
  private final BucketProxy[] buckets;

  /**
   * @param keep how long Redis keeps a bucket after it is full again (Bucket4j's expiry strategy
   *     {@code basedOnTimeForRefillingBucketUpToMax}); at this limit a bucket is full at once
   */
  Bucket4jContender(int port, int keys, boolean batching, int poolSize, Duration keep) {
    GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
    config.setMaxTotal(poolSize);
    config.setMaxIdle(poolSize);
    config.setMinIdle(poolSize);
    pool = new JedisPool(config, LocalRedis.HOST, port, 2_000);
    ProxyManager<String> proxies =
        Bucket4jJedis.casBasedBuilder(pool)
            .expirationAfterWrite(
                ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(keep))
            .keyMapper(Mapper.STRING)
            .build();
    BucketConfiguration limit =
        BucketConfiguration.builder()
            .addLimit(l -> l.capacity(LIMIT).refillGreedy(LIMIT, Duration.ofMinutes(1)))
            .build();
    buckets = new BucketProxy[keys];
    for (int i = 0; i < keys; i++) {
      RemoteBucketBuilder<String> builder = proxies.builder();
      if (batching) {
        builder = builder.withOptimization(Optimizations.batching());
      }
      buckets[i] = builder.build("b4j:{" + Contender.identity(i) + "}:api", () -> limit);
    }
  }

  @Override
  public boolean take(int key) {
    // Remaining tokens and the wait come with it, as a limiter that sends headers needs.
    return buckets[key].tryConsumeAndReturnRemaining(1).isConsumed();
  }

  @Override
  public void close() {
    pool.close();
  }
}
