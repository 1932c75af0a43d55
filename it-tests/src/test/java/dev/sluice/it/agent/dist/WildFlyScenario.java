package dev.sluice.it.agent.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The agent in a WildFly distribution as the WildFly project ships it, started by {@code
 * standalone.sh} with the flag in {@code JAVA_OPTS} and nothing else: WildFly boots (JBoss Modules
 * installs JBoss LogManager and its MBean server after {@code premain}), JBoss LogManager writes
 * Sluice's lines to {@code server.log}, and the test app, deployed as {@code app.war}, is limited
 * inside Undertow's modules. Each concrete class names the distribution and its namespace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WildFlyScenario {
  private static final String HELLO = "/app/api/hello";
  private static final Duration BOOT = Duration.ofSeconds(240);

  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32]
      rules:
        - { id: hello, match: { path: %s }, key: ip, limit: 3, window: 1h }
      """
          .formatted(HELLO);

  private WildFlyDistribution wildFly;
  private AgentWebApp app;
  private ChildJvm script;
  private Http http;

  /** The failsafe system property naming the unpacked distribution. */
  abstract String distributionProperty();

  /** True for a javax.servlet WildFly (26 and before). */
  abstract boolean javax();

  /** True to add the flag to standalone.conf's JAVA_OPTS, false to set JAVA_OPTS to it alone. */
  abstract boolean flagInStandaloneConf();

  @BeforeAll
  void start() throws Exception {
    wildFly = WildFlyDistribution.of(distributionProperty());
    app = AgentWebApp.create(javax(), RULES, "");
    wildFly.deploy("app", app.dir());
    script =
        wildFly.start(
            getClass().getSimpleName(),
            "-javaagent:" + Settings.agentJar() + "=config=" + app.config(),
            flagInStandaloneConf());
    script.awaitLine(
        line -> line.contains("WFLYSRV0025") || line.contains("WFLYSRV0026"),
        "saying WildFly started (WFLYSRV0025 or 0026)",
        BOOT);
    http = new Http(wildFly.port());
  }

  @Test
  void bootsCleanlyWithTheAppDeployed() {
    assertThat(script.output())
        .contains("WFLYSRV0025")
        .contains("WFLYSRV0010: Deployed \"app.war\"")
        .doesNotContain("WFLYSRV0026")
        .doesNotContain("WFLYLOG0078")
        .doesNotContain("Failed to load the specified log manager")
        .doesNotContain("The LogManager accessed before");
  }

  @Test
  void countsDownThenRejectsWith429BeforeTheApp() throws Exception {
    DistributionChecks.assertCountsDownThenRejects(
        http, HELLO, "hello", 3, "10.30.0.1", body -> assertThat(body).isEqualTo("hello"));
  }

  @Test
  void pathsWithoutARuleAreUntouched() throws Exception {
    DistributionChecks.assertUntouched(
        http, List.of("/app/count", "/app/somewhere/else"), "10.30.1.1");
  }

  /**
   * Sluice's lines reach server.log through JBoss LogManager, in WildFly's own format ({@code
   * LEVEL [category] (thread) message}), which they would not if the JDK's log manager were in
   * force: the rules in force as WildFly boots, the agent's start once it serves.
   */
  @Test
  void wildFlysLogManagerWritesSluicesLinesToServerLog() throws Exception {
    assertThat(http.get("/app/count", "10.30.2.1").statusCode()).isEqualTo(200);
    String inForce =
        "INFO +\\[dev\\.sluice\\.config\\] \\([^)]+\\) Sluice: 1 rule in force from "
            + Pattern.quote(app.config().toString());
    String started = "INFO +\\[dev\\.sluice\\.agent\\] \\([^)]+\\) Sluice: agent started in ";
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    String log = wildFly.serverLog();
    while (!Pattern.compile(started).matcher(log).find() && System.nanoTime() < deadline) {
      Thread.sleep(50); // the start is logged by the agent's thread, just after the request
      log = wildFly.serverLog();
    }
    assertThat(log).containsPattern(inForce).containsPattern(started);
  }

  /**
   * The agent's MBeans, registered at the first request, in the platform MBean server WildFly set
   * up, as jconsole would read them.
   */
  @Test
  void theRuleCountsItsDecisionsInJmx() throws Exception {
    assertThat(http.get(HELLO, "10.30.3.1").statusCode()).isEqualTo(200);
    DistributionChecks.assertRuleCountedInJmx(Processes.java(script), "hello");
  }

  /**
   * Stops WildFly with SIGTERM; it must go down by itself, and the agent must never have said that
   * something failed.
   */
  @AfterAll
  void stop() throws Exception {
    try {
      if (script != null) {
        Processes.stopScriptAndServer(script, "WildFly", Duration.ofSeconds(60));
        String output = Processes.awaitOutput(script, "WFLYSRV0050");
        assertThat(output)
            .doesNotContain("Sluice: could not instrument")
            .doesNotContain("because the agent failed")
            .doesNotContain("the agent could not start")
            .doesNotContain("Sluice: JBoss Modules read");
      }
    } finally {
      if (script != null) {
        script.close();
      }
      if (app != null) {
        app.delete();
      }
      if (wildFly != null) {
        wildFly.delete();
      }
    }
  }
}
