package dev.sluice.it.agent.otel;

import static dev.sluice.it.Http.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A web app on Tomcat 11 with the OpenTelemetry Java agent and the OpenTelemetry API in its
 * WEB-INF/lib, which that agent bridges to its own spans, limited by the web.xml Filter (the
 * published jar, no agent of ours) or by our agent (no Filter): either way the server span of each
 * request carries Sluice's decision, so the trace of a 429 says which rule denied it.
 */
class SpanAttributesIT {
  private static final String CLIENT = "10.9.2.1";

  enum LimitedBy {
    FILTER,
    AGENT
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(LimitedBy.class)
  void theServerSpanOfEachRequestCarriesTheRuleAndTheOutcome(LimitedBy by) throws Exception {
    AgentWebApp app =
        by == LimitedBy.FILTER
            ? AgentWebApp.create(
                AgentContainer.TOMCAT_11, OpenTelemetryAgentIT.RULES, AgentWebApp.Part.SLUICE_FILTER)
            : AgentWebApp.create(AgentContainer.TOMCAT_11, OpenTelemetryAgentIT.RULES);
    AgentServer server = null;
    try {
      for (Path jar : apiJars()) {
        app.addLibrary(jar);
      }
      List<String> otel = ServerSpans.agentFlags();
      server =
          by == LimitedBy.FILTER
              ? AgentServer.startWithOptions(AgentContainer.TOMCAT_11, app, otel)
              : AgentServer.start(AgentContainer.TOMCAT_11, app, otel, List.of());
      Http http = server.http();
      for (int i = 1; i <= 3; i++) {
        assertThat(http.get("/api/hello", CLIENT).statusCode()).as("request %d", i).isEqualTo(200);
      }
      assertRejected(http.get("/api/hello", CLIENT), "hello");

      ServerSpans spans = new ServerSpans(server.jvm()::output);
      String path = "url.path=/api/hello";
      String from = "client.address=" + CLIENT;
      assertThat(
              spans.count(
                  1,
                  path,
                  from,
                  "http.response.status_code=429",
                  "sluice.rule=hello",
                  "sluice.outcome=denied",
                  "sluice.remaining=0"))
          .as("the 429's server span")
          .isEqualTo(1);
      assertThat(
              spans.count(
                  3,
                  path,
                  from,
                  "http.response.status_code=200",
                  "sluice.rule=hello",
                  "sluice.outcome=allowed"))
          .as("the allowed requests' server spans")
          .isEqualTo(3);
      assertThat(spans.count(1, path, from, "http.response.status_code=200", "sluice.remaining=0"))
          .as("the last allowed one took the last permit")
          .isEqualTo(1);
    } finally {
      if (server != null) {
        server.close();
        server.jvm().close();
      }
      app.delete();
    }
  }

  /** opentelemetry-api and the jars it needs, as the app's build would bundle them. */
  private static List<Path> apiJars() throws Exception {
    try (Stream<Path> jars = Files.list(Path.of(Settings.required("sluice.it.otelApiDir")))) {
      List<Path> found = jars.filter(p -> p.toString().endsWith(".jar")).collect(Collectors.toList());
      assertThat(found).as("the OpenTelemetry API jars (run mvn verify)").hasSize(3);
      return found;
    }
  }
}
