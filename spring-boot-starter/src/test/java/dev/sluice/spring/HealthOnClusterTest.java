package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisProcess;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The Redis store's health on a real Redis Cluster of three masters, every one of which the test
 * then kills: up, then down, and with {@code sluice.health.affects-overall} the application's
 * overall health down too. Before issue 28 the store-wide breaker, closed once the client had the
 * slot map, was counted as a shard beside the masters', and the health never went below degraded.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "management.endpoint.health.show-details=always",
      "sluice.health.affects-overall=true"
    })
class HealthOnClusterTest {
  /** Clients enough that each master holds some of their keys: (2/3)^40 that one holds none. */
  private static final int CLIENTS = 40;

  private static RedisClusterHandle cluster;
  private static Path config;

  @LocalServerPort int port;

  @DynamicPropertySource
  static void config(DynamicPropertyRegistry registry) throws Exception {
    cluster = RedisClusterHandle.startLocal(3, 0);
    config = Files.createTempFile("sluice-starter-health-cluster", ".yaml");
    String seeds = "cluster: [" + String.join(", ", cluster.seedUris()) + "]";
    Files.writeString(config, HealthTest.YAML.formatted("healthcluster", seeds));
    registry.add("sluice.config", config::toString);
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.close();
    Files.deleteIfExists(config);
  }

  private JsonNode health(Client client) throws Exception {
    return new ObjectMapper().readTree(client.get("/actuator/health/sluice", "10.28.9.9").body());
  }

  private void requestFromEveryClient(Client client) throws Exception {
    for (int i = 0; i < CLIENTS; i++) {
      assertThat(client.get("/api/c", "10.28.0." + i).statusCode()).as("fail_open").isEqualTo(200);
    }
  }

  @Test
  void upThenDownWithEveryMasterKilled() throws Exception {
    Client client = new Client(port);
    requestFromEveryClient(client);
    JsonNode up = health(client);
    assertThat(up.at("/status").asText()).as(up.toString()).isEqualTo("UP");
    assertThat(up.at("/details/breakers").size()).as("one per master").isEqualTo(3);

    cluster.masters().forEach(RedisProcess::kill);
    JsonNode down = up;
    long deadline = System.nanoTime() + 20_000_000_000L;
    for (int i = 0; i < 100 && System.nanoTime() < deadline; i++) {
      requestFromEveryClient(client);
      down = health(client);
      if (down.at("/details/redis").asText().equals("down")) {
        break;
      }
    }
    assertThat(down.at("/details/redis").asText()).as(down.toString()).isEqualTo("down");
    assertThat(down.at("/status").asText()).isEqualTo("DOWN");
    HttpResponse<String> overall = client.get("/actuator/health", "10.28.9.9");
    assertThat(overall.statusCode()).as(overall.body()).isEqualTo(503);
  }
}
