package dev.sluice.it.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/** The cluster of the harness: 3 masters and 3 replicas, started once; the failover runs last. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class ClusterChecks {
  private RedisClusterHandle cluster;

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

  @Test
  @Order(1)
  void threeMastersWithAReplicaEachCoverEverySlotOnce() {
    assertThat(cluster.seedUris()).hasSize(6).allMatch(uri -> uri.startsWith("redis://127.0.0.1:"));
    List<RedisProcess> masters = cluster.masters();
    assertThat(masters).hasSize(3);
    masters.forEach(master -> assertThat(cluster.replicasOf(master)).hasSize(1));
    RedisProcess any = cluster.nodes().get(0);
    BitSet covered = new BitSet(KeySlot.SLOTS);
    int total = 0;
    for (Object entry : (List<?>) RedisProbe.once(any.host(), any.port(), "CLUSTER", "SLOTS")) {
      List<?> range = (List<?>) entry;
      int first = ((Long) range.get(0)).intValue();
      int last = ((Long) range.get(1)).intValue();
      covered.set(first, last + 1);
      total += last - first + 1;
    }
    assertThat(covered.cardinality()).isEqualTo(KeySlot.SLOTS);
    assertThat(total).as("no slot served twice").isEqualTo(KeySlot.SLOTS);
    for (RedisProcess node : cluster.nodes()) {
      assertThat(ClusterView.info(node))
          .containsEntry("cluster_state", "ok")
          .containsEntry("cluster_slots_ok", "" + KeySlot.SLOTS)
          .containsEntry("cluster_known_nodes", "6");
    }
  }

  @Test
  @Order(2)
  void keySlotAgreesWithTheServer() {
    RedisProcess any = cluster.nodes().get(0);
    try (RedisProbe probe = any.probe()) {
      for (String key :
          List.of(
              "",
              "a",
              "sluice:10.0.0.1",
              "{user:1}:a",
              "x{user:1}",
              "a{}{b}",
              "a{{b}}",
              "{",
              "\u00e9t\u00e9")) {
        assertThat(KeySlot.of(key)).as(key).isEqualTo(probe.callLong("CLUSTER", "KEYSLOT", key));
      }
    }
  }

  @Test
  @Order(3)
  void aKeyWrittenViaItsMasterIsReadableThereAndMovedElsewhere() {
    String key = "sluice:{it}:counter";
    RedisProcess master = cluster.masterForKey(key);
    try (RedisProbe probe = master.probe()) {
      assertThat(probe.call("SET", key, "5")).isEqualTo("OK");
      assertThat(probe.call("GET", key)).isEqualTo("5");
    }
    List<RedisProcess> others = cluster.masters().stream().filter(node -> node != master).toList();
    assertThat(others).hasSize(2);
    for (RedisProcess other : others) {
      assertThatThrownBy(() -> RedisProbe.once(other.host(), other.port(), "GET", key))
          .isInstanceOfSatisfying(
              RedisProbe.ErrorReply.class,
              e ->
                  assertThat(e.reply())
                      .isEqualTo("MOVED " + KeySlot.of(key) + " 127.0.0.1:" + master.port()));
    }
  }

  @Test
  @Order(4)
  void killingAMasterPromotesItsReplicaWithin15Seconds() {
    String key = "sluice:{failover}:k";
    int slot = KeySlot.of(key);
    RedisProcess master = cluster.masterForSlot(slot);
    List<RedisProcess> replicas = cluster.replicasOf(master);
    try (RedisProbe probe = master.probe()) {
      probe.call("SET", key, "kept");
      assertThat(probe.callLong("WAIT", "1", "5000")).as("replicas acknowledging").isEqualTo(1);
    }
    long start = System.nanoTime();
    RedisProcess killed = cluster.killMaster(slot);
    RedisProcess promoted = cluster.awaitFailover(killed, Duration.ofSeconds(15));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.println("Cluster failover took " + took.toMillis() + " ms");
    assertThat(took).isLessThanOrEqualTo(Duration.ofSeconds(15));
    assertThat(killed).isSameAs(master);
    assertThat(killed.isAlive()).isFalse();
    assertThat(replicas).containsExactly(promoted);
    assertThat(cluster.masterForSlot(slot)).isSameAs(promoted);
    assertThat(cluster.masters()).hasSize(3).doesNotContain(killed);
    assertThat(RedisProbe.once(promoted.host(), promoted.port(), "GET", key)).isEqualTo("kept");
  }
}
