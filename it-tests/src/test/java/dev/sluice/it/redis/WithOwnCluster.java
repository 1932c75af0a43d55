package dev.sluice.it.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A test class with a Redis Cluster of its own, 3 masters with a replica each unless it says
 * otherwise, for tests that change the cluster for good (a failover, a resharding) or watch what
 * a client of it leaves behind (threads, a JVM's exit): started before its tests, closed after
 * them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class WithOwnCluster {
  private final int replicas;
  protected RedisClusterHandle cluster;

  protected WithOwnCluster() {
    this(1);
  }

  protected WithOwnCluster(int replicas) {
    this.replicas = replicas;
  }

  @BeforeAll
  void startCluster() {
    cluster = RedisServers.cluster(3, replicas);
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
