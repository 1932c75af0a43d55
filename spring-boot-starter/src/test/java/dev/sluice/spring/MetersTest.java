package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Sluice's meters in the application's registry and in /actuator/metrics, after real requests; and
 * its answers in Boot's own http.server.requests, like any response.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "management.endpoints.web.exposure.include=metrics")
class MetersTest {
  @LocalServerPort int port;
  @Autowired MeterRegistry registry;

  private double decisions(String outcome) {
    return registry
        .get("sluice.decisions")
        .tags("rule", "api", "outcome", outcome)
        .functionCounter()
        .count();
  }

  @Test
  void decisionsAreCountedByRuleAndOutcome() throws Exception {
    Client client = new Client(port);
    for (int i = 1; i <= 4; i++) {
      client.get("/api/m", "10.4.0.1");
    }
    client.get("/api/m", "10.4.0.2");
    assertThat(decisions("allowed")).isEqualTo(4);
    assertThat(decisions("denied")).isEqualTo(1);
    assertThat(decisions("shadow_denied")).isZero();
    assertThat(registry.get("sluice.config.rules").gauge().value()).isEqualTo(3);

    HttpResponse<String> metric =
        client.get(
            "/actuator/metrics/sluice.decisions?tag=rule:api&tag=outcome:denied", "10.4.0.3");
    assertThat(metric.statusCode()).as(metric.body()).isEqualTo(200);
    assertThat(metric.body().replace(" ", "")).contains("\"statistic\":\"COUNT\",\"value\":1.0");
  }

  @Test
  void aDeniedRequestIsObservedInHttpServerRequestsLikeAnyResponse() throws Exception {
    Client client = new Client(port);
    // The secure rule allows 2 a client (Spring Security answers those 401); the third is Sluice's.
    client.get("/secure/o", "10.4.1.1");
    client.get("/secure/o", "10.4.1.1");
    assertThat(client.get("/secure/o", "10.4.1.1").statusCode()).isEqualTo(429);
    // Recorded as the observation filter returns, which may be just after the client has its answer.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(
                        registry.find("http.server.requests").tag("status", "429").timers())
                    .as("the default order puts Sluice inside Boot's observation")
                    .isNotEmpty());
  }
}
