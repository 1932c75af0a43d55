package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The agent (-javaagent, with its own file: 5 an hour) and the starter (the class path's: 3) in one
 * application: a request is decided once, by the agent that sees it first, and the starter's Filter
 * lets it pass as decided; after the login too, for the rules keyed by the user.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AgentWithStarterIT {
  @LocalServerPort int port;
  @Autowired MeterRegistry registry;

  @Test
  void aRequestIsCountedOnce() throws Exception {
    Client client = new Client(port);
    for (int i = 1; i <= 5; i++) {
      HttpResponse<String> allowed = client.get("/api/both", "10.9.0.1");
      assertThat(allowed.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(Client.header(allowed, Client.LIMIT)).as("the agent's limit").isEqualTo("5");
      assertThat(Client.header(allowed, Client.REMAINING)).isEqualTo(String.valueOf(5 - i));
    }
    assertThat(client.get("/api/both", "10.9.0.1").statusCode()).isEqualTo(429);
    assertThat(
            registry
                .get("sluice.decisions")
                .tags("rule", "api", "outcome", "allowed")
                .functionCounter()
                .count())
        .as("the starter's rule, left the decided requests")
        .isZero();
  }

  /**
   * Both files have a rule keyed by the user on /secure/**. The starter's after-login mapping runs
   * before the agent's check at the servlet, and used to decide with the starter's file (limit 3):
   * the agent, which decided the request at entry, decides it after login too.
   */
  @Test
  void theAgentThatDecidedARequestAtEntryDecidesItsUsersRulesToo() throws Exception {
    Client client = new Client(port);
    for (int i = 1; i <= 5; i++) {
      HttpResponse<String> allowed = client.get("/secure/both", "10.9.1." + i, "alice");
      assertThat(allowed.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(Client.header(allowed, Client.LIMIT)).as("the agent's limit").isEqualTo("5");
      assertThat(Client.header(allowed, Client.REMAINING)).isEqualTo(String.valueOf(5 - i));
    }
    assertThat(client.get("/secure/both", "10.9.1.6", "alice").statusCode()).isEqualTo(429);
    assertThat(client.get("/secure/both", "10.9.1.7", "bob").statusCode())
        .as("a limit of bob's own")
        .isEqualTo(200);
    assertThat(registry.find("sluice.decisions").tags("rule", "per-user").functionCounters())
        .as("the starter's user rule decided nothing")
        .allSatisfy(counter -> assertThat(counter.count()).isZero());
  }
}
