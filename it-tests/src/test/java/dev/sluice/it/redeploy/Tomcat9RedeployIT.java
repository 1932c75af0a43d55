package dev.sluice.it.redeploy;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tomcat 9 and the javax Filter, on a Redis Cluster: the store with the most threads. */
class Tomcat9RedeployIT extends RedeployScenario {
  private RedisClusterHandle cluster;

  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_9;
  }

  @BeforeAll
  void startCluster() {
    cluster = RedisServers.cluster(3, 0);
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void onARedisCluster() throws Exception {
    redeploysLeavingNothing(
        "{ type: redis, key_prefix: rd9, redis: { cluster: [%s], timeout: 1s } }"
            .formatted(String.join(", ", cluster.seedUris())));
  }
}
