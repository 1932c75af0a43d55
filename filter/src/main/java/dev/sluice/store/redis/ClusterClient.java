package dev.sluice.store.redis;

import java.time.Duration;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster client that also tells which master holds a key, from the slot map it keeps to
 * route commands anyway, so that each shard can have its own {@link Breaker} ({@link Shards}).
 */
final class ClusterClient extends JedisCluster implements Shards.SlotMap {
  private final ClusterConnectionProvider slots;

  ClusterClient(ClusterConnectionProvider slots, Duration maxTotalRetries) {
    super(slots, 1, maxTotalRetries);
    this.slots = slots;
  }

  @Override
  public int slotOf(String key) {
    return JedisClusterCRC16.getSlot(key);
  }

  @Override
  public HostAndPort masterOf(int slot) {
    return slots.getNode(slot);
  }
}
