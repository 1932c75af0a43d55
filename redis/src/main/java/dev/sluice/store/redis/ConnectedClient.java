package dev.sluice.store.redis;

import dev.sluice.metrics.RoundTrips;
import redis.clients.jedis.UnifiedJedis;

/** A connected Redis client and the pipelines that carry decisions over it. */
final class ConnectedClient implements AutoCloseable {
  private static final int SENDERS = senders(Runtime.getRuntime().availableProcessors());

  /**
   * Round trips of callers in flight at once: one, so that every caller arriving while it is out
   * goes in the next, as one script run (docs/performance.md, Redis, "callers take turns").
   */
  private static final int TURNS = 1;

  final UnifiedJedis redis;
  final Pipeliner pipeliner;

  ConnectedClient(
      UnifiedJedis redis, long timeoutMillis, ShardBreakers breakers, RoundTrips roundTrips) {
    this.redis = redis;
    if (redis instanceof ClusterClient) {
      breakers.locate((ClusterClient) redis);
    }
    this.pipeliner = new Pipeliner(redis, timeoutMillis, SENDERS, TURNS, roundTrips);
  }

  /**
   * Sender threads, for what is queued rather than waited for by a caller (refunds, a handover's
   * charges, calls sent again by text): two on one or two cores, one per core up to four. The
   * pool's other connections serve the callers' round trips, handovers and heartbeats.
   */
  static int senders(int cores) {
    return Math.min(4, Math.max(2, cores));
  }

  /** On Redis Cluster, reads the slot map again, so pipelines follow a failover within a round. */
  void followSlots() {
    if (redis instanceof ClusterClient) {
      ((ClusterClient) redis).refreshSlots();
    }
  }

  @Override
  public void close() {
    pipeliner.close();
    redis.close();
  }
}
