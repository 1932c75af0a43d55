package dev.sluice.store.redis;

import java.time.Duration;
import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster client that also tells which master holds a key, from the slot map it keeps to
 * route commands anyway, so that each shard can have its own {@link Breaker} ({@link
 * ShardBreakers}); its connections read within their {@link Budget}.
 */
final class ClusterClient extends JedisCluster implements ShardBreakers.SlotMap {
  private final ClusterConnectionProvider slots;

  private ClusterClient(ClusterConnectionProvider slots, Duration maxTotalRetries) {
    super(slots, 1, maxTotalRetries);
    this.slots = slots;
  }

  /**
   * One attempt per command: a command that timed out may already have counted, so it is never
   * retried. The client starts no thread: Jedis's periodic refresh of the slot map would be a
   * thread of its own, started before any seed is asked and left running when none answers (a
   * store retries every second), so the store's maintenance calls {@link #refreshSlots} instead.
   */
  static ClusterClient connect(
      Set<HostAndPort> seeds,
      JedisClientConfig client,
      GenericObjectPoolConfig<Connection> pool,
      int timeoutMillis) {
    return new ClusterClient(
        new Budgeted(seeds, client, pool, timeoutMillis), Duration.ofMillis(timeoutMillis));
  }

  /**
   * Reads the slot map again from a node that answers. Decisions go through pipelines, and a
   * cluster pipeline never reads it itself, so after a failover every call for the moved slots
   * would go to the old master forever (after a resharding, {@link Redirects} reads it on MOVED);
   * a plain command reads it again when its connection fails.
   */
  void refreshSlots() {
    slots.renewSlotCache();
  }

  @Override
  public int slotOf(String key) {
    return JedisClusterCRC16.getSlot(key);
  }

  @Override
  public HostAndPort masterOf(int slot) {
    return slots.getNode(slot);
  }

  /** The cluster's connections, each read within its {@link Budget}. */
  private static final class Budgeted extends ClusterConnectionProvider {
    private final int timeoutMillis;

    Budgeted(
        Set<HostAndPort> seeds,
        JedisClientConfig client,
        GenericObjectPoolConfig<Connection> pool,
        int timeoutMillis) {
      super(seeds, client, pool);
      this.timeoutMillis = timeoutMillis;
    }

    @Override
    public Connection getConnection(HostAndPort node) {
      return Budget.apply(super.getConnection(node), timeoutMillis);
    }

    @Override
    public Connection getConnection(CommandArguments args) {
      return Budget.apply(super.getConnection(args), timeoutMillis);
    }

    @Override
    public Connection getConnection() {
      return Budget.apply(super.getConnection(), timeoutMillis);
    }

    @Override
    public Connection getConnectionFromSlot(int slot) {
      return Budget.apply(super.getConnectionFromSlot(slot), timeoutMillis);
    }
  }

  /** Follows the MOVED and ASK replies of pipelines, which Jedis does not, over this slot map. */
  Redirects redirects() {
    return new Redirects(slots);
  }
}
