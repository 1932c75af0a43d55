package dev.sluice.it.redeploy;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tomcat 11 and the jakarta Filter, on each kind of store: memory, Redis, Redis Cluster. */
class Tomcat11RedeployIT extends RedeployScenario {
  private RedisServer redis;
  private RedisClusterHandle cluster;

  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }

  @BeforeAll
  void startRedis() {
    redis = RedisServers.standalone();
    cluster = RedisServers.cluster(3, 0);
  }

  @AfterAll
  void stopRedis() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void onTheMemoryStore() throws Exception {
    redeploysLeavingNothing("{ type: memory }");
  }

  @Test
  void onRedis() throws Exception {
    redeploysLeavingNothing(
        "{ type: redis, key_prefix: rd1, redis: { url: \"%s\", timeout: 1s } }"
            .formatted(redis.uri()));
  }

  @Test
  void onARedisCluster() throws Exception {
    redeploysLeavingNothing(
        "{ type: redis, key_prefix: rd2, redis: { cluster: [%s], timeout: 1s } }"
            .formatted(String.join(", ", cluster.seedUris())));
  }
}
