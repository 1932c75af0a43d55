package dev.sluice.store.redis;

import redis.clients.jedis.UnifiedJedis;

/** A connected Redis client and the pipelines that carry decisions over it. */
final class Link implements AutoCloseable {
  private static final int SENDERS = senders(Runtime.getRuntime().availableProcessors());

  final UnifiedJedis redis;
  final Pipeliner pipeliner;

  Link(UnifiedJedis redis, long timeoutMillis, Shards shards) {
    this.redis = redis;
    if (redis instanceof ClusterClient) {
      shards.locate((ClusterClient) redis);
    }
    this.pipeliner = new Pipeliner(redis, timeoutMillis, SENDERS, 8);
  }

  /**
   * Pipelines in flight at once, each holding one connection while it waits for its replies: two on
   * one or two cores, one per core up to four. On two cores, two beat four by 20 % at 8 threads
   * (fewer, fuller batches: fewer thread switches and reads) and lose 4 % at 64; more than four
   * lose everywhere (docs/performance.md, Redis). The pool's other connections serve refunds,
   * handovers and heartbeats.
   */
  static int senders(int cores) {
    return Math.min(4, Math.max(2, cores));
  }

  @Override
  public void close() {
    pipeliner.close();
    redis.close();
  }
}
