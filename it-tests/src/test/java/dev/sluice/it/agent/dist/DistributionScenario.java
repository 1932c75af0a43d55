package dev.sluice.it.agent.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.WebApp;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The agent in a Tomcat distribution as Apache ships it, started by {@code catalina.sh run} with
 * the flag in {@code CATALINA_OPTS}, limiting the bundled examples web app: a javax or jakarta app
 * behind Tomcat's own filters, class loaders and juli logging, none of which the agent may trip
 * over (and, where a class asks, the test app beside it). Each concrete class names the
 * distribution.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DistributionScenario {
  static final String HELLO = "/examples/servlets/servlet/HelloWorldExample";
  private static final Duration START = Duration.ofSeconds(120);

  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32]
      rules:
        - { id: hello-example, match: { path: %s }, key: ip, limit: 3, window: 1h }
      """
          .formatted(HELLO);

  private TomcatDistribution tomcat;
  private AgentWebApp app;
  private ChildJvm jvm;
  Http http;

  /** The failsafe system property naming the unpacked distribution. */
  abstract String distributionProperty();

  /**
   * True to deploy the javax test app as webapps/app too, under {@link
   * DistributionChecks#APP_RULE}, for {@link DistributionChecks#assertTheAppNeverSeesA429}: the
   * examples app cannot tell whether its servlet ran.
   */
  boolean withJavaxTestApp() {
    return false;
  }

  @BeforeAll
  void start() throws Exception {
    tomcat = TomcatDistribution.copy(distributionProperty());
    Path config = tomcat.home().getParent().resolve("ratelimit.yaml");
    if (withJavaxTestApp()) {
      // The app's own (empty) ratelimit.yaml goes unused: the agent reads both rules from config.
      app = AgentWebApp.create(true, "", "");
      WebApp.copyTree(app.dir(), tomcat.home().resolve("webapps/app"));
      Files.writeString(config, RULES + DistributionChecks.APP_RULE);
    } else {
      Files.writeString(config, RULES);
    }
    jvm =
        tomcat.start(
            getClass().getSimpleName(), "-javaagent:" + Settings.agentJar() + "=config=" + config);
    jvm.awaitLineContaining("Server startup in ", START);
    http = new Http(tomcat.port());
  }

  @Test
  void countsDownThenRejectsWith429BeforeTheExamplesApp() throws Exception {
    DistributionChecks.assertCountsDownThenRejects(
        http,
        HELLO,
        "hello-example",
        3,
        "10.20.0.1",
        body -> assertThat(body).contains("<title>Hello World!</title>"));
  }

  @Test
  void pagesWithoutARuleAreUntouched() throws Exception {
    // No JSP: with the agent, Jasper's first compile took about 30 s instead of 3 to 5 (every
    // compiler class loaded has its hierarchy read anew by the agent's type matcher), past the
    // client's timeout. StartupCost in bench/ measures it.
    DistributionChecks.assertUntouched(
        http,
        List.of("/examples/servlets/", "/examples/servlets/servlet/RequestInfoExample"),
        "10.20.1.1");
  }

  /** catalina.sh execs java in run mode: stopping this process stops Tomcat, leaving no orphan. */
  @Test
  void theScriptProcessIsTomcatsJvmWithTheAgent() {
    ProcessHandle process = ProcessHandle.of(jvm.pid()).orElseThrow();
    assertThat(process.info().command()).hasValueSatisfying(c -> assertThat(c).endsWith("/java"));
    assertThat(process.info().arguments())
        .hasValueSatisfying(args -> assertThat(args).anyMatch(a -> a.startsWith("-javaagent:")));
    assertThat(process.descendants()).as("processes under Tomcat's JVM").isEmpty();
  }

  /**
   * Stops Tomcat as a service manager would (SIGTERM) and checks it went down by itself, through
   * its shutdown hook, and that the agent said it started and which rules are in force (a line
   * logged by the thread that loads them), and never that something failed.
   */
  @AfterAll
  void stop() throws Exception {
    try {
      if (jvm != null) {
        DistributionChecks.stopCheckingTheAgent(jvm, "Stopping service [Catalina]");
      }
    } finally {
      if (jvm != null) {
        jvm.close();
      }
      if (app != null) {
        app.delete();
      }
      if (tomcat != null) {
        tomcat.delete();
      }
    }
  }
}
