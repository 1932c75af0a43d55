package dev.sluice.it.agent.dist;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RESET;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.ChildMBeans;
import dev.sluice.it.jvm.ChildJvm;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import javax.management.InstanceNotFoundException;

/**
 * What every server distribution must show with the agent: limits where a rule is, none elsewhere.
 */
final class DistributionChecks {
  /** The test app's answer, when deployed as /app: its one limited path. */
  static final String APP_HELLO = "/app/api/hello";

  /** The rule {@link #assertTheAppNeverSeesA429} expects, as an item of a rules list. */
  static final String APP_RULE =
      "  - { id: app-hello, match: { path: " + APP_HELLO + " }, key: ip, limit: 3, window: 1h }\n";

  /** Rules for the test app deployed as /app alone. */
  static final String APP_RULES =
      "client_ip:\n  trusted_proxies: [127.0.0.1/32]\nrules:\n" + APP_RULE;

  private DistributionChecks() {}

  /**
   * With the test app deployed as /app under {@link #APP_RULES}: {@link
   * #assertCountsDownThenRejects} for {@code client}, then more 429s, and the app's own count (its
   * {@code /count}) shows its servlet ran for the allowed requests only, never for a 429.
   */
  static void assertTheAppNeverSeesA429(Http http, String client) throws Exception {
    int served = served(http);
    assertCountsDownThenRejects(
        http, APP_HELLO, "app-hello", 3, client, body -> assertThat(body).isEqualTo("hello"));
    for (int i = 0; i < 3; i++) {
      assertRejected(http.get(APP_HELLO, client), "app-hello");
    }
    assertThat(served(http) - served)
        .as("requests the app served: the client's 3 allowed, another client's 1")
        .isEqualTo(4);
  }

  private static int served(Http http) throws Exception {
    HttpResponse<String> response = http.get("/app/count", "10.255.255.255");
    assertThat(response.statusCode()).as("GET /app/count").isEqualTo(200);
    return Integer.parseInt(response.body().trim());
  }

  /**
   * Stops the server as a service manager would (SIGTERM: its shutdown hook stops it), once the
   * agent said it started, and checks from its output up to {@code stoppedLine} that it went down
   * by itself and that the agent never said something failed.
   */
  static void stopCheckingTheAgent(ChildJvm jvm, String stoppedLine) throws Exception {
    awaitAgentStarted(jvm);
    Processes.stopGracefully(jvm, Duration.ofSeconds(30));
    assertAgentRanWithoutFailure(Processes.awaitOutput(jvm, stoppedLine));
  }

  /**
   * Waits for the agent's line saying it started, which its own thread logs just after the first
   * request: a server stopped before would end its output without it.
   */
  static void awaitAgentStarted(ChildJvm jvm) throws InterruptedException {
    jvm.awaitLineContaining("Sluice: agent started in ", Duration.ofSeconds(10));
  }

  /**
   * A server's whole output, once stopped: the agent said it started and which rules are in force
   * (a line logged by the thread that loads them), and never that something failed.
   */
  static void assertAgentRanWithoutFailure(String output) {
    assertThat(output).contains("Sluice: agent started in ");
    assertThat(output)
        .as("lines from Sluice's own threads reach the server's log too")
        .contains(" in force from ");
    assertThat(output)
        .doesNotContain("Sluice: could not instrument")
        .doesNotContain("because the agent failed")
        .doesNotContain("the agent could not start");
  }

  /**
   * {@code limit} requests of {@code client} to {@code path} served, each with the app's own body
   * ({@code appBody} checks it) and the permits counting down, then a 429 of {@code rule}; another
   * client still served.
   */
  static void assertCountsDownThenRejects(
      Http http, String path, String rule, int limit, String client, Consumer<String> appBody)
      throws Exception {
    for (int i = 1; i <= limit; i++) {
      HttpResponse<String> allowed = http.get(path, client);
      assertThat(allowed.statusCode()).isEqualTo(200);
      appBody.accept(allowed.body());
      assertThat(number(allowed, LIMIT)).isEqualTo(limit);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(limit - i);
      // A sliding window is whole again only once its requests have left the previous window.
      assertThat(number(allowed, RESET)).isBetween(1L, 7200L);
      assertThat(allowed.headers().firstValue(RETRY_AFTER)).isEmpty();
    }
    HttpResponse<String> denied = http.get(path, client);
    assertRejected(denied, rule);
    assertThat(number(denied, REMAINING)).isZero();
    assertThat(http.get(path, client + "0").statusCode())
        .as("another client has its own limit")
        .isEqualTo(200);
  }

  /**
   * The agent's MBean of {@code rule}, registered at the first request in the platform MBean server
   * the server set up, read as jconsole would from the server's JVM ({@code pid}): it counted an
   * allowed request. Waits at most 10 s for it to be registered.
   */
  static void assertRuleCountedInJmx(long pid, String rule) throws Exception {
    try (ChildMBeans beans = ChildMBeans.of(pid)) {
      String name = "dev.sluice:type=Rule,context=agent,name=" + rule;
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (true) {
        try {
          assertThat((Long) beans.attribute(name, "Allowed")).isPositive();
          return;
        } catch (InstanceNotFoundException e) {
          if (System.nanoTime() > deadline) {
            throw new AssertionError(name + " not registered within 10 s of a request", e);
          }
          Thread.sleep(50); // registered by the agent's thread, just after the request
        }
      }
    }
  }

  /** Each of {@code paths}, asked four times, served without a rate-limit header. */
  static void assertUntouched(Http http, List<String> paths, String client) throws Exception {
    for (String path : paths) {
      for (int i = 0; i < 4; i++) {
        HttpResponse<String> response = http.get(path, client);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        assertThat(response.headers().map().keySet())
            .as(path)
            .noneMatch(name -> name.regionMatches(true, 0, "X-RateLimit-", 0, 12));
      }
    }
  }
}
