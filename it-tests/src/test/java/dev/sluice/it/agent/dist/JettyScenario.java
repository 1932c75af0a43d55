package dev.sluice.it.agent.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The agent in a Jetty distribution before 12 as the Eclipse project ships it, started by {@code
 * java -jar start.jar} with the flag on the java command line and nothing else, limiting the test
 * app deployed as {@code webapps/app}: Jetty's own class loaders, deployer and logging, which the
 * agent must not trip over. Each concrete class names the distribution and its namespace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JettyScenario {
  private static final Duration START = Duration.ofSeconds(120);

  private JettyDistribution jetty;
  private AgentWebApp app;
  private ChildJvm jvm;
  private Http http;

  /** The failsafe system property naming the unpacked distribution. */
  abstract String distributionProperty();

  /** True for a javax.servlet Jetty (9.4 and 10). */
  abstract boolean javax();

  /** The start.jar option that enables the http and deploy modules in a base. */
  abstract String addModules();

  @BeforeAll
  void start() throws Exception {
    jetty = JettyDistribution.of(distributionProperty(), addModules());
    app = AgentWebApp.create(javax(), DistributionChecks.APP_RULES, "");
    jetty.deploy("app", app.dir());
    jvm =
        jetty.start(
            getClass().getSimpleName(),
            List.of("-javaagent:" + Settings.agentJar() + "=config=" + app.config()));
    jvm.awaitLineContaining(":oejs.Server:main: Started ", START);
    http = new Http(jetty.port());
  }

  @Test
  void deploysTheAppAndStartsCleanly() {
    assertThat(jvm.output())
        .containsPattern("Started o\\.e\\.j\\.w\\.WebAppContext@\\w+\\{app,/app,")
        .doesNotContain("WARN");
  }

  @Test
  void countsDownThenRejectsWith429BeforeTheApp() throws Exception {
    DistributionChecks.assertTheAppNeverSeesA429(http, "10.40.0.1");
  }

  @Test
  void pathsWithoutARuleAreUntouched() throws Exception {
    DistributionChecks.assertUntouched(
        http, List.of("/app/count", "/app/somewhere/else"), "10.40.1.1");
  }

  /**
   * Stops Jetty as a service manager would (SIGTERM: its shutdown hook stops the server) and checks
   * it went down by itself, that the agent said it started and which rules are in force, and never
   * that something failed.
   */
  @AfterAll
  void stop() throws Exception {
    try {
      if (jvm != null) {
        DistributionChecks.stopCheckingTheAgent(jvm, "Stopped ");
      }
    } finally {
      if (jvm != null) {
        jvm.close();
      }
      if (app != null) {
        app.delete();
      }
      if (jetty != null) {
        jetty.delete();
      }
    }
  }
}
