package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@code sluice.config} names a file, and an edit of it is in force without a restart. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReloadTest {
  private static final String RULE =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: edited, match: { path: "/api/**" }, key: ip, limit: %d, window: 1h }
      """;
  private static final Path FILE = temporaryFile();

  @LocalServerPort int port;

  private static Path temporaryFile() {
    try {
      return Files.writeString(Files.createTempFile("sluice-starter", ".yaml"), RULE.formatted(4));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @DynamicPropertySource
  static void config(DynamicPropertyRegistry registry) {
    registry.add("sluice.config", FILE::toString);
  }

  @AfterAll
  static void delete() throws IOException {
    Files.deleteIfExists(FILE);
  }

  @Test
  void anEditedLimitIsInForceWithinSeconds() throws Exception {
    Client client = new Client(port);
    assertThat(Client.header(client.get("/api/r", "10.3.0.1"), Client.LIMIT))
        .as("the file's limit, not the class path's")
        .isEqualTo("4");
    Files.writeString(FILE, RULE.formatted(7));
    String limit = null;
    long deadline = System.nanoTime() + 15_000_000_000L;
    for (int i = 0; i < 150 && System.nanoTime() < deadline; i++) {
      HttpResponse<String> response = client.get("/open", "10.3.0.2");
      limit = Client.header(client.get("/api/r", "10.3.0." + (10 + i % 200)), Client.LIMIT);
      if ("7".equals(limit) && response.statusCode() == 200) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(limit).as("the limit after the edit").isEqualTo("7");
  }
}
