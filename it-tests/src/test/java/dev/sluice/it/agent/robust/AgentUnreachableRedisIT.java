package dev.sluice.it.agent.robust;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * {@code store.type: redis} with nothing listening at the URL: the app starts and serves, the log
 * says Redis is failing, a {@code fail_open} rule limits to this JVM's share (limit 6 over a fleet
 * of 2: 3) and a {@code fail_closed} rule denies with {@code Retry-After: 1}.
 */
class AgentUnreachableRedisIT {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;
  private static final int LIMIT_ALL = 6;
  private static final int SHARE = 3;

  private static String rules(int port) {
    return """
    store:
      type: redis
      redis: { url: "redis://127.0.0.1:%d", timeout: 50ms }
    fleet: { size: 2 }
    client_ip:
      trusted_proxies: [127.0.0.1/32, "::1/128"]
    rules:
      - { id: open, match: { path: /open }, key: ip, limit: %d, window: 1h,
          algorithm: token_bucket, on_error: fail_open }
      - { id: closed, match: { path: /closed }, key: ip, limit: %d, window: 1h,
          algorithm: token_bucket, on_error: fail_closed }
    """
        .formatted(port, LIMIT_ALL, LIMIT_ALL);
  }

  @Test
  void startsServesAndDecidesEachRuleByItsOnError() throws Exception {
    int port = closedPort();
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, rules(port)))) {
      AgentServer server = run.start(CONTAINER);
      Http http = server.http();
      Limits.assertUnlimited(http, "/somewhere/else", "10.23.0.1", 3);

      for (int i = 1; i <= SHARE; i++) {
        HttpResponse<String> allowed = http.get("/open", "10.23.0.2");
        assertThat(allowed.statusCode()).as("fail_open request %d", i).isEqualTo(200);
        assertThat(allowed.body()).isEqualTo("hello");
        assertThat(number(allowed, LIMIT)).as("the rule's limit").isEqualTo(LIMIT_ALL);
        assertThat(number(allowed, REMAINING)).as("left of the share").isEqualTo(SHARE - i);
      }
      assertRejected(http.get("/open", "10.23.0.2"), "open");
      assertThat(http.get("/open", "10.23.0.3").statusCode())
          .as("another client has a share of its own")
          .isEqualTo(200);

      for (int i = 1; i <= 3; i++) {
        HttpResponse<String> denied = http.get("/closed", "10.23.0.4");
        assertThat(assertRejected(denied, "closed")).as("fail_closed Retry-After").isEqualTo(1);
        assertThat(denied.headers().firstValue(RETRY_AFTER)).hasValue("1");
      }

      Logs.await(
          server,
          "WARNING: Sluice: Redis 127.0.0.1:"
              + port
              + " is failing (dev.sluice.internal.redis.jedis.exceptions.JedisConnectionException:"
              + " Failed to connect to 127.0.0.1:"
              + port
              + ".); rules decide locally");
      Logs.await(server, "Sluice: 2 rules in force from " + run.app().config());
      AgentRun.assertStartedCleanly(server);
      assertThat(server.jvm().output())
          .as("Jedis logs through the agent's own SLF4J binding, never SLF4J's console notes")
          .doesNotContain("SLF4J");
    }
  }

  /** A loopback port nothing listens on: bound by the system, then closed. */
  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    }
  }
}
