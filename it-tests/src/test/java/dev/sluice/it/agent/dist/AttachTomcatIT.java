package dev.sluice.it.agent.dist;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar sluice-agent.jar attach <pid>} into a Tomcat 11 that has served requests without
 * the agent: its filter chain and servlet classes are loaded and hot, so only retransforming them
 * can put the limits in front of the app. The next requests must be limited.
 */
class AttachTomcatIT {
  private static final Duration START = Duration.ofSeconds(90);
  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32]
      rules:
        - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h }
      """;

  /** The rules a second attach puts in force instead. */
  private static final String OTHER_RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32]
      rules:
        - { id: hello-again, match: { path: /api/hello }, key: ip, limit: 1, window: 1h }
      """;

  @Test
  void attachingLimitsTheVeryNextRequests() throws Exception {
    AgentContainer container = AgentContainer.TOMCAT_11;
    AgentWebApp app = AgentWebApp.create(container, RULES);
    try (ChildJvm server = startWithoutAgent(container, app)) {
      String serving = server.awaitLine("SERVING ", START);
      Http http = new Http(Integer.parseInt(serving.substring("SERVING ".length())));

      for (int i = 0; i < 5; i++) {
        HttpResponse<String> unlimited = http.get("/api/hello", "10.30.0.1");
        assertThat(unlimited.statusCode()).isEqualTo(200);
        assertThat(unlimited.headers().map().keySet())
            .as("headers before the attach")
            .noneMatch(name -> name.regionMatches(true, 0, "X-RateLimit-", 0, 12));
      }

      ChildJvm attach = attach(server.pid(), "config=" + app.config());
      assertThat(attach.awaitExit(START))
          .as("attach exit code; output:\n%s", attach.output())
          .isZero();
      assertThat(attach.output())
          .as("what the target did, as it says")
          .containsPattern(
              "Sluice agent in process "
                  + server.pid()
                  + ": attached, rules from "
                  + Pattern.quote(app.config().toString())
                  + "; [1-9][0-9]* loaded servlet classes instrumented");
      String attached = server.awaitLineContaining("Sluice: agent attached in ", START);
      assertThat(attached)
          .as("the container's already loaded servlet classes were retransformed")
          .containsPattern("; [1-9][0-9]* loaded servlet classes instrumented");

      int served = http.served();
      for (int i = 1; i <= 3; i++) {
        HttpResponse<String> allowed = http.get("/api/hello", "10.30.0.1");
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).isEqualTo("hello");
        assertThat(number(allowed, LIMIT)).isEqualTo(3);
        assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
      }
      assertRejected(http.get("/api/hello", "10.30.0.1"), "hello");
      assertThat(http.served() - served).as("requests the servlet served").isEqualTo(3);

      ChildJvm again = attach(server.pid(), null);
      assertThat(again.awaitExit(START)).as(again.output()).isZero();
      assertThat(again.output())
          .contains(
              "Sluice agent in process "
                  + server.pid()
                  + ": already running, rules from "
                  + app.config()
                  + "; nothing changed");

      // A file with an error changes nothing: the command fails with the error, the rules stay.
      Path broken =
          Files.writeString(
              app.config().resolveSibling("broken.yaml"),
              OTHER_RULES.replace("limit: 1,", "limit: 0,"));
      ChildJvm refused = attach(server.pid(), "config=" + broken);
      assertThat(refused.awaitExit(START)).as(refused.output()).isEqualTo(1);
      assertThat(refused.output())
          .contains(
              "attach: the agent in process "
                  + server.pid()
                  + " failed: the rules from "
                  + broken
                  + " were not put in force, those from "
                  + app.config()
                  + " stay; nothing changed: Sluice rejected "
                  + broken
                  + ":")
          .contains(broken + ":4:")
          .doesNotContain("refusing to start");
      assertRejected(http.get("/api/hello", "10.30.0.1"), "hello");

      Path other = Files.writeString(app.config().resolveSibling("other.yaml"), OTHER_RULES);
      ChildJvm change = attach(server.pid(), "config=" + other);
      assertThat(change.awaitExit(START)).as(change.output()).isZero();
      assertThat(change.output())
          .contains(
              "Sluice agent in process "
                  + server.pid()
                  + ": already running; rules now from "
                  + other
                  + ", no longer from "
                  + app.config());
      server.awaitLineContaining(" in force from " + other, START);
      assertThat(http.get("/api/hello", "10.30.0.2").statusCode()).isEqualTo(200);
      assertRejected(http.get("/api/hello", "10.30.0.2"), "hello-again");

      server.stop();
      assertThat(server.output())
          .doesNotContain("Sluice: could not instrument")
          .doesNotContain("because the agent failed")
          .doesNotContain("the agent could not start");
    } finally {
      app.delete();
    }
  }

  /** ServeTomcat on Tomcat 11's class path, with no agent flag at all. */
  private static ChildJvm startWithoutAgent(AgentContainer container, AgentWebApp app) {
    List<String> command = new ArrayList<>();
    command.add(ChildJvm.java());
    if (Runtime.version().feature() >= 21) {
      // Java 21+ warns on a dynamically loaded agent unless the JVM was started allowing it.
      command.add("-XX:+EnableDynamicAgentLoading");
    }
    command.add("-cp");
    command.add(container.classPath());
    command.add(container.main().getName());
    command.add(app.dir().toString());
    return ChildJvm.start("tomcat-without-agent", command, Map.of(), null);
  }

  /** {@code attach <pid> [argument]}, with no argument when {@code argument} is null. */
  private static ChildJvm attach(long pid, String argument) {
    List<String> command =
        new ArrayList<>(
            List.of(
                ChildJvm.java(),
                "-jar",
                Settings.agentJar().toString(),
                "attach",
                Long.toString(pid)));
    if (argument != null) {
      command.add(argument);
    }
    return ChildJvm.start("attach", command, Map.of(), null);
  }
}
