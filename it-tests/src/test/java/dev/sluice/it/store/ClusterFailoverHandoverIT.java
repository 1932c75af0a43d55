package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.WithOwnCluster;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisCluster;

/**
 * A master dies while a JVM admits its share locally, and a replica is promoted under a new
 * address: what was admitted locally must reach the promoted master before it decides anything,
 * exactly as when the old master comes back. A cluster of its own, since the failover changes it
 * for good.
 */
class ClusterFailoverHandoverIT extends WithOwnCluster {
  private static final int LIMIT = 20;
  private static final int FLEET = 2;
  private static final int BEFORE_OUTAGE = 5;

  @Test
  void aPromotedReplicaIsChargedWhatWasAdmittedLocallyBeforeItDecides() throws Exception {
    RedisProcess victim = cluster.masters().get(0);
    String identity =
        ClusterStores.identitiesByMaster(cluster, "ip=198.51.100.", 1).get(victim.port()).get(0);
    long window = RedisKeys.windowFarFromItsEdges();
    Quota quota = Quota.of(LIMIT, window, LIMIT);
    String key = RedisKeys.key("fh", identity, "r", Algorithm.FIXED_WINDOW, window);
    RedisSettings settings = RedisSettings.cluster(ClusterStores.seedUris(cluster), 200, 8);
    try (RedisStore store = RedisStore.open(settings, "fh", FLEET, Clock.SYSTEM, 10_000);
        JedisCluster reader = ClusterStores.readClient(cluster)) {
      Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, window);
      int admitted = HandoverIT.admitted(store, counters, quota, identity, BEFORE_OUTAGE);
      assertThat(admitted).as("Redis decides while its master is up").isEqualTo(BEFORE_OUTAGE);
      assertThat(RedisKeys.count(reader.get(key))).isEqualTo(BEFORE_OUTAGE);
      // The replica must hold those counts before its master dies, or the test would lose them.
      RedisProbe.once(victim.host(), victim.port(), "WAIT", "1", "5000");

      RedisProcess killed = cluster.killMaster(ClusterStores.slotOf(identity));
      admitted += HandoverIT.admitted(store, counters, quota, identity, 3 * LIMIT);
      assertThat(admitted)
          .as(
              "while the master is down this JVM admits its share of what Redis had left of the"
                  + " window, (limit - counted) / fleet")
          .isEqualTo(BEFORE_OUTAGE + (LIMIT - BEFORE_OUTAGE) / FLEET);
      cluster.awaitFailover(killed, Duration.ofSeconds(20));

      // Keep asking until the promoted master holds the whole limit, or for at most 15 seconds:
      // the store learns the new slot map within a second, then its probe waits out its pause.
      long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (RedisKeys.count(reader.get(key)) < LIMIT && System.nanoTime() < until) {
        admitted += HandoverIT.admitted(store, counters, quota, identity, 10);
        Thread.sleep(20);
      }
      assertThat(RedisKeys.count(reader.get(key)))
          .as("the promoted master counted what was admitted locally, then the rest")
          .isEqualTo(LIMIT);
      assertThat(admitted).as("one limit across the failover, not a second one").isEqualTo(LIMIT);
    }
  }
}
