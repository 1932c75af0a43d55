package dev.sluice.store.redis;

import dev.sluice.metrics.RoundTrips;
import dev.sluice.store.Clock;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.JedisPooled;

/**
 * For experiments in the benchmarks only: the store's package-private {@link Pipeliner} with a
 * chosen number of sender threads, running the store's own acquire script. It lives in the store's
 * package (in the benchmarks jar, not in the filter) so that the sender count can be varied without
 * changing the filter.
 */
public final class PipelinerProbe implements AutoCloseable {
  private final JedisPooled redis;
  private final Pipeliner pipeliner;
  private final Breaker breaker = new Breaker(Clock.SYSTEM, "probe");

  public PipelinerProbe(String host, int port, int senders, int timeoutMillis) {
    redis = new JedisPooled(host, port);
    pipeliner =
        new Pipeliner(redis, timeoutMillis, senders, 1, new RoundTrips(Clock.SYSTEM::micros));
  }

  /** The text of the store's acquire script, as it sends it to Redis. */
  public static String acquireScript() {
    return Script.ACQUIRE.text();
  }

  /**
   * Runs acquire.lua through the pipeliner's sender threads (queued for them, as the store queues
   * refunds); the reply is four integers per key.
   */
  public List<?> acquire(List<String> keys, List<String> args) {
    long deadline = pipeliner.deadlineFromNow();
    return (List<?>)
        pipeliner.await(
            pipeliner.submit(Script.ACQUIRE, breaker, keys, new ArrayList<>(args), deadline),
            deadline);
  }

  @Override
  public void close() {
    pipeliner.close();
    redis.close();
  }
}
