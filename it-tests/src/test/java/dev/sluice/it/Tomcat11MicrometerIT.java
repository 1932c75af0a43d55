package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * A plain web app on Tomcat 11, no Spring: the web.xml Filter, and a ServletContextListener that
 * binds Sluice's meters to the app's own registry in one line ({@link RegistryListener}), before
 * the Filter has started. After real requests, the meters count what the clients got.
 */
class Tomcat11MicrometerIT {
  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket }
        - { id: count, match: { path: /count }, key: ip, limit: 5, window: 1h,
            algorithm: token_bucket }
      """;

  private static final String LISTENER =
      "  <listener><listener-class>dev.sluice.it.RegistryListener</listener-class></listener>\n";

  @Test
  void theAppsRegistryCountsEachRulesDecisions() throws Exception {
    Deployment deployment = Deployment.start(new Tomcat11(), RULES, LISTENER);
    try {
      Http http = deployment.http();
      int[] statuses = new int[4];
      for (int i = 0; i < 4; i++) {
        statuses[i] = http.get("/api/hello", "10.31.0.1").statusCode();
      }
      assertThat(statuses).containsExactly(200, 200, 200, 429);
      assertThat(http.get("/count", "10.31.0.1").statusCode()).isEqualTo(200);
      assertThat(http.get("/count", "10.31.0.2").statusCode()).isEqualTo(200);

      MeterRegistry registry = RegistryListener.registry;
      assertThat(decisions(registry, "hello", "allowed")).isEqualTo(3);
      assertThat(decisions(registry, "hello", "denied")).isEqualTo(1);
      assertThat(decisions(registry, "count", "allowed")).isEqualTo(2);
      assertThat(decisions(registry, "count", "denied")).isZero();
      assertThat(registry.get("sluice.config.rules").gauge().value()).isEqualTo(2);
      assertThat(registry.get("sluice.store.shared").gauge().value()).as("memory store").isZero();
    } finally {
      deployment.stop();
    }
  }

  private static double decisions(MeterRegistry registry, String rule, String outcome) {
    return registry
        .get("sluice.decisions")
        .tags("rule", rule, "outcome", outcome)
        .functionCounter()
        .count();
  }
}
