package dev.sluice.it.agent.otel;

import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The OpenTelemetry Java agent and ours in one Tomcat 11 JVM, its -javaagent flag before ours or
 * after it. Both rewrite the container's servlet classes with Byte Buddy, each with its own copy
 * and its own class loaders: the limits must still apply, the app still serve, and OpenTelemetry's
 * server span must still see every request, a 429 of ours included (its Tomcat instrumentation
 * wraps the whole request, outside the filter chain where we answer).
 */
class OpenTelemetryAgentIT {
  static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket }
      """;

  enum Order {
    OTEL_FIRST,
    SLUICE_FIRST
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Order.class)
  void limitsApplyAndOpenTelemetryTracesEveryRequest(Order order) throws Exception {
    AgentWebApp app = AgentWebApp.create(AgentContainer.TOMCAT_11, RULES);
    AgentServer server = null;
    try {
      server = start(app, order);
      String client = order == Order.OTEL_FIRST ? "10.9.0.1" : "10.9.1.1";
      assertLimited(server.http(), client);
      assertTraced(new ServerSpans(server.jvm()::output), client);
      server.close();
      assertBothStarted(server.jvm().output());
    } finally {
      if (server != null) {
        server.jvm().close();
      }
      app.delete();
    }
  }

  private static AgentServer start(AgentWebApp app, Order order) {
    List<String> otel = ServerSpans.agentFlags();
    return order == Order.OTEL_FIRST
        ? AgentServer.start(AgentContainer.TOMCAT_11, app, otel, List.of())
        : AgentServer.start(AgentContainer.TOMCAT_11, app, List.of(), otel);
  }

  /** 3 served with permits counting down (so each counted once), then a 429 the app never saw. */
  private static void assertLimited(Http http, String client) throws Exception {
    int served = http.served();
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = http.get("/api/hello", client);
      assertThat(allowed.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(allowed.body()).isEqualTo("hello");
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
    }
    assertRejected(http.get("/api/hello", client), "hello");
    assertThat(http.served() - served).as("requests the servlet served").isEqualTo(3);
  }

  /** One server span per request, each with the status the client got. */
  private static void assertTraced(ServerSpans spans, String client) throws InterruptedException {
    String path = "url.path=/api/hello";
    String from = "client.address=" + client;
    assertThat(spans.count(3, path, from, "http.response.status_code=200"))
        .as("server spans of the allowed requests")
        .isEqualTo(3);
    assertThat(spans.count(1, path, from, "http.response.status_code=429"))
        .as("server spans of the rejected request")
        .isEqualTo(1);
  }

  /**
   * Each agent started, and ours reported nothing amiss. (Which ran first is the command line's
   * order: our line cannot tell, as the agent holds it until the application has set up its
   * logging, after both premains.)
   */
  private static void assertBothStarted(String output) {
    assertThat(output)
        .as("OpenTelemetry's agent started")
        .contains("opentelemetry-javaagent - version: ");
    assertThat(output).as("our agent started").contains("Sluice: agent started in ");
    assertThat(output)
        .doesNotContain("because the agent failed")
        .doesNotContain("the agent could not start");
    assertThat(output)
        .as("OpenTelemetry's helper classes, injected with no class file, are no failure of ours")
        .doesNotContain("Sluice: could not instrument");
  }
}
