package dev.sluice.it.agent.robust;

import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.it.redis.WithOwnCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JVM with the agent and a Redis Cluster store stops by itself once its server has stopped, as
 * after {@code catalina.sh stop}: ServeTomcat stops Tomcat and returns from {@code main} when its
 * input ends, and the JVM then waits for every thread that is not a daemon. None of Sluice's may
 * be one, whether the cluster answers or not (a store that cannot reach it tries again every
 * second); the agent closes nothing at exit and needs not to.
 */
class AgentClusterStopIT extends WithOwnCluster {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;
  private static final Duration EXIT = Duration.ofSeconds(30);

  AgentClusterStopIT() {
    super(0);
  }

  private static String rules(List<String> seeds) {
    return """
    store:
      type: redis
      redis: { cluster: [%s], timeout: 500ms }
    fleet: { size: 1 }
    client_ip:
      trusted_proxies: [127.0.0.1/32, "::1/128"]
    rules:
      - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h,
          on_error: fail_closed }
    """
        .formatted(String.join(", ", seeds));
  }

  @Test
  void exitsOnceStoppedWithAClusterThatAnswers() throws Exception {
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, rules(cluster.seedUris())))) {
      AgentServer server = run.start(CONTAINER);
      Http http = server.http();
      for (int i = 1; i <= 3; i++) {
        assertThat(number(http.get("/api/hello", "10.31.0.1"), REMAINING))
            .as("left after request %d, counted by the cluster (fail_closed otherwise)", i)
            .isEqualTo(3 - i);
      }
      assertRejected(http.get("/api/hello", "10.31.0.1"), "hello");
      assertExitsOnceStopped(server);
    }
  }

  @Test
  void exitsOnceStoppedWithAClusterNobodyAnswersFor() throws Exception {
    String seed = RedisServers.unreachableUri();
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, rules(List.of(seed))))) {
      AgentServer server = run.start(CONTAINER);
      assertThat(server.http().get("/api/hello", "10.31.0.2").statusCode())
          .as("fail_closed while no node answers")
          .isEqualTo(429);
      Logs.await(server, "is failing");
      Thread.sleep(3_000); // three more connects by the store's maintenance, one a second
      assertExitsOnceStopped(server);
    }
  }

  private static void assertExitsOnceStopped(AgentServer server) throws Exception {
    server.jvm().closeInput();
    assertThat(server.jvm().awaitExit(EXIT)).as("the JVM's exit code").isZero();
  }
}
