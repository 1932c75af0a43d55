package dev.sluice.it.store;

import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A test class with a Redis Cluster of its own, 3 masters with a replica each, for tests that
 * change the cluster for good (a failover, a resharding): started before its tests, closed after
 * them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WithOwnCluster {
  RedisClusterHandle cluster;

  @BeforeAll
  void startCluster() {
    cluster = RedisServers.cluster(3, 1);
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
