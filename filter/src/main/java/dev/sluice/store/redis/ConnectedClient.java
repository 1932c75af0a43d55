package dev.sluice.store.redis;

import dev.sluice.metrics.RoundTrips;
import redis.clients.jedis.UnifiedJedis;

/** A connected Redis client and the pipelines that carry decisions over it. */
final class ConnectedClient implements AutoCloseable {
  private static final int SENDERS = senders(Runtime.getRuntime().availableProcessors());

  final UnifiedJedis redis;
  final Pipeliner pipeliner;

  ConnectedClient(
      UnifiedJedis redis, long timeoutMillis, ShardBreakers breakers, RoundTrips roundTrips) {
    this.redis = redis;
    if (redis instanceof ClusterClient) {
      breakers.locate((ClusterClient) redis);
    }
    this.pipeliner = new Pipeliner(redis, timeoutMillis, SENDERS, 8, roundTrips);
  }

  /**
   * Pipelines in flight at once, each holding one connection while it waits for its replies: two on
   * one or two cores, one per core up to four: fewer senders fill fuller batches (fewer thread
   * switches and reads), more keep Redis busier, and beyond four they only cost
   * (docs/performance.md, Redis, has the figures). The pool's other connections serve handovers and
   * heartbeats.
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
