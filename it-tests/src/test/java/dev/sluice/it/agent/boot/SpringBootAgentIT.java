package dev.sluice.it.agent.boot;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.PerUserChecks;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The agent in a Spring Boot executable jar (examples/spring-boot-app), which knows nothing of
 * Sluice. Boot loads Tomcat and Spring from jars nested in BOOT-INF/lib through its own class
 * loader, not the system one: a 429 from its embedded Tomcat shows the agent found the servlet API
 * there and hooked the container's filter chain ahead of Spring's DispatcherServlet. The app logs
 * its users in itself (Spring Security, HTTP Basic): a rule keyed by the user is decided when the
 * request reaches the DispatcherServlet, once Spring Security has set the user.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringBootAgentIT {
  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket }
      """
          + PerUserChecks.RULE;

  private Path config;
  private BootJar app;
  private Http http;

  @BeforeAll
  void start() throws Exception {
    config = Files.createTempFile("sluice-boot-it", ".yaml");
    Files.writeString(config, RULES);
    app = BootJar.start(config);
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
   * Said once the app serves, through Boot's logging: Boot drops what is logged while it sets up its
   * logging, after java.util.logging's.
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
  void eachUserLoggedInByTheAppHasALimitOfItsOwn() throws Exception {
    PerUserChecks.assertEachUserHasALimitOfTheirOwn(http, "10.7.2.1");
    assertThat(http.get("/api/me", "10.7.2.1").statusCode())
        .as("no user: the app's login answers, and the rule is not reached")
        .isEqualTo(401);
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
