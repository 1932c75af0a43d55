package dev.sluice.store.redis;

import java.time.Duration;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster client that also tells which master holds a key, from the slot map it keeps to
 * route commands anyway, so that each master can have its own {@link Breaker} ({@link Shards}).
 */
final class ClusterClient extends JedisCluster {
  private final ClusterConnectionProvider slots;

  ClusterClient(ClusterConnectionProvider slots, Duration maxTotalRetries) {
    super(slots, 1, maxTotalRetries);
    this.slots = slots;
  }

  /** The master serving {@code key}'s slot, or null while the slot map has none for it. */
  HostAndPort masterOf(String key) {
    return slots.getNode(JedisClusterCRC16.getSlot(key));
  }

  /** Follows the MOVED and ASK replies of pipelines, which Jedis does not, over this slot map. */
  Redirects redirects() {
    return new Redirects(slots);
  }
}
