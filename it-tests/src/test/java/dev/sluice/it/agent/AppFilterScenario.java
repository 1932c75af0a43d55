package dev.sluice.it.agent;

import static dev.sluice.it.Http.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** An app whose own filter runs before its servlets: a denied request reaches neither. */
abstract class AppFilterScenario extends AgentScenario {
  @Override
  String rules() {
    return helloRules(2, "");
  }

  @Override
  AgentWebApp.Part[] parts() {
    return new AgentWebApp.Part[] {AgentWebApp.Part.APP_FILTER};
  }

  @Test
  void theAppFilterRunsForAllowedRequestsOnly() throws Exception {
    int filtered = http.filtered();
    int served = http.served();
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> allowed = http.get("/api/hello", "10.2.0.1");
      assertThat(allowed.statusCode()).isEqualTo(200);
      assertThat(allowed.headers().firstValue("X-App-Filter")).hasValue("ran");
    }
    HttpResponse<String> denied = http.get("/api/hello", "10.2.0.1");
    assertRejected(denied, "hello");
    assertThat(denied.headers().firstValue("X-App-Filter")).as("the app filter ran").isEmpty();
    assertThat(http.filtered() - filtered).as("requests the app filter saw").isEqualTo(2);
    assertThat(http.served() - served).as("requests the servlet served").isEqualTo(2);
  }
}
