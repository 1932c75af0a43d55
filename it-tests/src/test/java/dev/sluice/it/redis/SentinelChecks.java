package dev.sluice.it.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/** The sentinel setup of the harness, started once; the failover runs last. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class SentinelChecks {
  private RedisSentinelHandle setup;

  @BeforeAll
  void startSentinels() {
    setup = RedisServers.sentinel();
  }

  @AfterAll
  void stopSentinels() {
    if (setup != null) {
      setup.close();
    }
  }

  @Test
  @Order(1)
  void everySentinelReportsTheMasterAsStarted() {
    RedisProcess first = setup.servers().get(0);
    RedisProcess replica = setup.servers().get(1);
    assertThat(setup.masterName()).isEqualTo("mymaster");
    assertThat(setup.sentinelUris())
        .hasSize(3)
        .allMatch(uri -> uri.startsWith("redis://127.0.0.1:"));
    assertThat(setup.masterAddress()).isEqualTo(new InetSocketAddress("127.0.0.1", first.port()));
    for (RedisProcess sentinel : setup.sentinels()) {
      assertThat(
              RedisProbe.once(
                  sentinel.host(),
                  sentinel.port(),
                  "SENTINEL",
                  "GET-MASTER-ADDR-BY-NAME",
                  "mymaster"))
          .isEqualTo(List.of("127.0.0.1", "" + first.port()));
    }
    assertThat(setup.master()).isSameAs(first);
    try (RedisProbe probe = replica.probe()) {
      assertThat(probe.info("replication"))
          .containsEntry("role", "slave")
          .containsEntry("master_port", "" + first.port());
    }
  }

  @Test
  @Order(2)
  void killMasterFailsOverToTheReplica() {
    RedisProcess master = setup.master();
    RedisProcess replica = setup.servers().get(1);
    try (RedisProbe probe = master.probe()) {
      probe.call("SET", "sentinel:k", "kept");
      assertThat(probe.callLong("WAIT", "1", "5000")).as("replicas acknowledging").isEqualTo(1);
    }
    long start = System.nanoTime();
    RedisProcess killed = setup.killMaster();
    // Sentinels promote in 2-4 s; one starved of CPU for 2 s (a loaded machine) enters TILT mode
    // and holds off for 30 s more.
    RedisProcess promoted = setup.awaitFailover(killed, RedisSentinelHandle.PROMOTION_TIMEOUT);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.println("Sentinel failover took " + took.toMillis() + " ms");
    assertThat(killed).isSameAs(master);
    assertThat(promoted).isSameAs(replica);
    assertThat(setup.masterAddress().getPort()).isEqualTo(replica.port());
    try (RedisProbe probe = promoted.probe()) {
      assertThat(probe.info("replication")).containsEntry("role", "master");
      assertThat(probe.call("GET", "sentinel:k")).isEqualTo("kept");
    }
  }
}
