package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.it.redis.RedisProcess;
import java.io.IOException;
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
 * The Redis store's health, from a real redis-server that the test then kills (the PATH's, else the
 * one bundled with the test dependencies, as every test of the build finds it): up, then degraded
 * (decided locally) while the application's overall health stays up.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "management.endpoint.health.show-details=always")
class HealthTest {
  /** A rule counted in Redis, failing open; formatted with the key prefix and where Redis is. */
  static final String YAML =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      store:
        type: redis
        key_prefix: %s
        redis: { %s, timeout: 500ms }
      rules:
        - { id: counted, match: { path: "/api/**" }, key: ip, limit: 100, window: 1h,
            on_error: fail_open }
      """;
  private static RedisProcess redis;
  private static Path config;

  @LocalServerPort int port;

  @DynamicPropertySource
  static void config(DynamicPropertyRegistry registry) throws Exception {
    redis = RedisProcess.startLocal();
    config = Files.createTempFile("sluice-starter-health", ".yaml");
    Files.writeString(config, YAML.formatted("healthtest", "url: \"" + redis.uri() + "\""));
    registry.add("sluice.config", config::toString);
  }

  @AfterAll
  static void stop() throws Exception {
    redis.close();
    Files.deleteIfExists(config);
  }

  private JsonNode health(Client client, String path) throws IOException, InterruptedException {
    HttpResponse<String> response = client.get(path, "10.6.0.9");
    return new ObjectMapper().readTree(response.body());
  }

  @Test
  void upThenDegradedWithRedisKilledWhileTheApplicationStaysUp() throws Exception {
    Client client = new Client(port);
    assertThat(client.get("/api/h", "10.6.0.1").statusCode()).isEqualTo(200);
    JsonNode up = health(client, "/actuator/health/sluice");
    assertThat(up.at("/status").asText()).as(up.toString()).isEqualTo("UP");
    assertThat(up.at("/details/store").asText()).isEqualTo("redis");
    assertThat(up.at("/details/redis").asText()).isEqualTo("up");

    redis.kill();
    JsonNode down = up;
    long deadline = System.nanoTime() + 20_000_000_000L;
    for (int i = 0; i < 200 && System.nanoTime() < deadline; i++) {
      assertThat(client.get("/api/h", "10.6.0.1").statusCode()).as("fail_open").isEqualTo(200);
      down = health(client, "/actuator/health/sluice");
      if (down.at("/details/redis").asText().equals("down")) {
        break;
      }
    }
    assertThat(down.at("/details/redis").asText()).as(down.toString()).isEqualTo("down");
    assertThat(down.at("/status").asText()).as("deciding locally").isEqualTo("DEGRADED");
    assertThat(down.at("/details/breakers").size()).isEqualTo(1);
    HttpResponse<String> overall = client.get("/actuator/health", "10.6.0.9");
    assertThat(overall.statusCode()).as(overall.body()).isEqualTo(200);
    assertThat(new ObjectMapper().readTree(overall.body()).at("/status").asText()).isEqualTo("UP");
  }
}
