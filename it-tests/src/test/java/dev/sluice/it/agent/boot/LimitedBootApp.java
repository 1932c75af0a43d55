package dev.sluice.it.agent.boot;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the agent must show in every Spring Boot executable jar, whichever Boot and server it
 * bundles: the jar started once per class with only the agent flag added, a 429 with our headers
 * and body on the limited path before the controller runs, other paths served untouched, and never
 * a line saying the agent failed. Each app answers {@code GET /api/hello} with {@code hello} and
 * {@code GET /count} with how many times it did. A subclass names its jar and may add rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LimitedBootApp {
  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket }
      """;

  private Path config;
  private BootJar app;
  Http http;

  /** The system property that names the executable jar (set in it-tests/pom.xml). */
  abstract String jarProperty();

  /** Rules (YAML list items under {@code rules:}) the subclass adds to the {@code hello} rule. */
  String moreRules() {
    return "";
  }

  @BeforeAll
  void start() throws Exception {
    config = Files.createTempFile("sluice-boot-it", ".yaml");
    Files.writeString(config, RULES + moreRules());
    app = BootJar.start(jarProperty(), config);
    http = app.http();
  }

  /** Whatever the tests did, the agent must never have said that something failed. */
  @AfterAll
  void stop() throws Exception {
    try {
      if (app != null) {
        app.stop();
        assertThat(app.output())
            .doesNotContain("Sluice: could not instrument")
            .doesNotContain("because the agent failed")
            .doesNotContain("the agent could not start");
      }
    } finally {
      Files.deleteIfExists(config);
    }
  }

  /**
   * Said once the app serves, through Boot's logging: Boot drops what is logged while it sets up
   * its logging, after java.util.logging's.
   */
  @Test
  void theAgentSaysItStartedOnceTheAppServes() throws Exception {
    assertThat(http.get("/count", "10.7.2.1").statusCode()).isEqualTo(200);
    app.awaitOutput("Sluice: agent started in ");
  }

  @Test
  void countsDownThenRejectsWith429WithoutCallingTheController() throws Exception {
    int served = http.served();
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = http.get("/api/hello", "10.7.0.1");
      assertThat(allowed.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(allowed.body()).isEqualTo("hello");
      assertThat(number(allowed, LIMIT)).isEqualTo(3);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
      assertThat(allowed.headers().firstValue(RETRY_AFTER)).isEmpty();
    }
    HttpResponse<String> denied = http.get("/api/hello", "10.7.0.1");
    assertRejected(denied, "hello");
    assertThat(number(denied, REMAINING)).isZero();
    assertThat(http.served() - served).as("requests the controller served").isEqualTo(3);
    assertThat(http.get("/api/hello", "10.7.0.2").statusCode())
        .as("another client has its own limit")
        .isEqualTo(200);
  }

  @Test
  void aPathWithoutARuleIsUntouched() throws Exception {
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> response = http.get("/count", "10.7.1.1");
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().map().keySet())
          .noneMatch(name -> name.regionMatches(true, 0, "X-RateLimit-", 0, 12));
    }
  }
}
