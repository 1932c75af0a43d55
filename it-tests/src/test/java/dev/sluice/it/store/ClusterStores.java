package dev.sluice.it.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.it.redis.KeySlot;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.store.Clock;
import dev.sluice.store.redis.RedisKey;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;

/**
 * Cluster-backed Redis stores for tests, and identities placed on chosen masters. RedisSettings
 * connects only inside its package, so tests that dictate the scripts' time build the JedisCluster
 * themselves, configured as the store's own would be: one attempt per command.
 */
final class ClusterStores {
  /** Connect and socket timeout: ample on loopback, short enough that a dead node fails fast. */
  static final int TIMEOUT_MILLIS = 1_000;

  /**
   * Identities tried before giving up on placing enough on every master; 16384 slots, 3 masters.
   */
  private static final int MAX_CANDIDATES = 10_000;

  private ClusterStores() {}

  static List<URI> seedUris(RedisClusterHandle cluster) {
    return cluster.seedUris().stream().map(URI::create).toList();
  }

  static Set<HostAndPort> seeds(RedisClusterHandle cluster) {
    Set<HostAndPort> seeds = new LinkedHashSet<>();
    for (RedisProcess node : cluster.nodes()) {
      seeds.add(new HostAndPort(node.host(), node.port()));
    }
    return seeds;
  }

  /**
   * A client as the store's: a single attempt, because a script that timed out may already have
   * counted, and trying again would count it twice.
   */
  static JedisCluster storeClient(RedisClusterHandle cluster) {
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(8);
    pool.setMaxIdle(8);
    return new JedisCluster(seeds(cluster), config(), 1, pool);
  }

  /** A client for the test's own reads, which may retry and follow the cluster as it changes. */
  static JedisCluster readClient(RedisClusterHandle cluster) {
    return new JedisCluster(seeds(cluster), config(), 5);
  }

  /** A fleet-of-one store on the cluster whose scripts take {@code clock}'s time as now. */
  static RedisStore manual(RedisClusterHandle cluster, String prefix, Clock clock) {
    return new RedisStore(
        storeClient(cluster),
        "test cluster",
        prefix,
        1,
        clock,
        10_000,
        RedisTime.following(clock),
        TIMEOUT_MILLIS);
  }

  /**
   * {@code perMaster} identities {@code stem + n} for each master serving slots now, keyed by its
   * port: every key of an identity carries the same hash tag, so all sit on the slot {@link
   * #slotOf} names.
   */
  static Map<Integer, List<String>> identitiesByMaster(
      RedisClusterHandle cluster, String stem, int perMaster) {
    Map<Integer, Integer> portOfSlotOwner = new TreeMap<>();
    Map<Integer, List<String>> byMaster = new TreeMap<>();
    for (RedisProcess master : cluster.masters()) {
      byMaster.put(master.port(), new ArrayList<>());
    }
    for (int n = 0; n < MAX_CANDIDATES; n++) {
      String identity = stem + n;
      int slot = slotOf(identity);
      int port = portOfSlotOwner.computeIfAbsent(slot, s -> cluster.masterForSlot(s).port());
      List<String> placed = byMaster.get(port);
      if (placed.size() < perMaster) {
        placed.add(identity);
      }
      if (byMaster.values().stream().allMatch(list -> list.size() == perMaster)) {
        return byMaster;
      }
    }
    throw new IllegalStateException(
        "could not place " + perMaster + " identities on each master: " + byMaster);
  }

  /** The first identity {@code stem + n} whose slot a master other than {@code port} serves. */
  static String identityNotOn(RedisClusterHandle cluster, String stem, int port) {
    for (int n = 0; n < MAX_CANDIDATES; n++) {
      String identity = stem + n;
      if (cluster.masterForSlot(slotOf(identity)).port() != port) {
        return identity;
      }
    }
    throw new IllegalStateException("every identity " + stem + "n lands on port " + port);
  }

  /** The slot of every key of {@code identity}: its tag depends on the identity alone. */
  static int slotOf(String identity) {
    return KeySlot.of(RedisKey.of("any", identity, "any", Algorithm.FIXED_WINDOW, 1_000_000));
  }

  private static JedisClientConfig config() {
    return DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(TIMEOUT_MILLIS)
        .socketTimeoutMillis(TIMEOUT_MILLIS)
        .clientName("sluice-it")
        .build();
  }
}
