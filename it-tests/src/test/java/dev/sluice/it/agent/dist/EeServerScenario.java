package dev.sluice.it.agent.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The agent in one of the big Java EE servers built on OSGi (Open Liberty on Equinox, Payara on
 * Felix) as its project ships it, started by its own script with the agent flag where an operator
 * puts JVM options and nothing else, the test app deployed from the server's watched directory: a
 * bundle's class loader sees the boot class path only for the packages the server boot-delegates,
 * so the agent must get its bridge's package into that list before the server reads it, or the
 * advice in the server's servlet classes could not reach the bridge. Each concrete class names the
 * server and how it is run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EeServerScenario {
  /** What the agent logs, once, about a class loader that cannot see its bridge. */
  static final String NOT_LIMITED = "is not limited: its class loader";

  private AgentWebApp app;
  private ChildJvm jvm;
  private Http http;

  /** True for a javax.servlet server. */
  abstract boolean javax();

  /**
   * Sets the server up in a directory of its own, deploys {@code app} as /app and starts it with
   * {@code agentFlag} added; returns once it says it serves the app.
   */
  abstract ChildJvm start(String name, AgentWebApp app, String agentFlag) throws Exception;

  /** The server's HTTP port. */
  abstract int port();

  /** The server's log file as far as written: Sluice's lines go there through its logging. */
  abstract String serverLog() throws IOException;

  /** Stops the server as a service manager would; returns its whole output once it is down. */
  abstract String stop(ChildJvm jvm) throws Exception;

  /**
   * True if the server has {@code java.util.logging} write to its console before its log file is
   * set up, while the agent loads its rules: the line saying which are in force is then on the
   * console, with the server's own lines of that moment.
   */
  boolean logsTheRulesBeforeItsLogFile() {
    return false;
  }

  /** Deletes the server's directory. */
  abstract void delete() throws IOException;

  @BeforeAll
  void start() throws Exception {
    app = AgentWebApp.create(javax(), DistributionChecks.APP_RULES, "");
    long begin = System.nanoTime();
    jvm =
        start(
            getClass().getSimpleName(),
            app,
            "-javaagent:" + Settings.agentJar() + "=config=" + app.config());
    // Measured for docs/agent.md: what this class adds to the suite's time.
    System.out.printf(
        "%s: the server served /app %d ms after its start%n",
        getClass().getSimpleName(), (System.nanoTime() - begin) / 1_000_000);
    http = new Http(port());
  }

  @Test
  void theAgentCanReachItsBridgeFromTheServersBundles() {
    assertThat(jvm.output()).doesNotContain(NOT_LIMITED);
  }

  @Test
  void countsDownThenRejectsWith429BeforeTheApp() throws Exception {
    DistributionChecks.assertTheAppNeverSeesA429(http, "10.50.0.1");
  }

  @Test
  void pathsWithoutARuleAreUntouched() throws Exception {
    DistributionChecks.assertUntouched(
        http, List.of("/app/count", "/app/somewhere/else"), "10.50.1.1");
  }

  /** The agent's MBeans, registered at the first request, as jconsole would read them. */
  @Test
  void theRuleCountsItsDecisionsInJmx() throws Exception {
    assertThat(http.get("/app/api/hello", "10.50.3.1").statusCode()).isEqualTo(200);
    DistributionChecks.assertRuleCountedInJmx(Processes.java(jvm), "app-hello");
  }

  /**
   * Sluice's lines reach the server's own log file through its logging: the agent's start once it
   * serves, and the rules in force as the server boots, there or (see {@link
   * #logsTheRulesBeforeItsLogFile}) on its console.
   */
  @Test
  void theServersLogHoldsSluicesLines() throws Exception {
    assertThat(http.get("/app/count", "10.50.2.1").statusCode()).isEqualTo(200);
    String log = awaitAgentStartedInServerLog();
    assertThat(log).contains("Sluice: agent started in ");
    String rules = "Sluice: 1 rule in force from " + app.config();
    if (logsTheRulesBeforeItsLogFile()) {
      assertThat(jvm.output()).contains(rules);
    } else {
      assertThat(log).contains(rules);
    }
  }

  /**
   * Stops the server as a service manager would; it must go down by itself, and the agent must
   * never have said that something failed or that a class loader could not see its bridge.
   */
  @AfterAll
  void stop() throws Exception {
    try {
      if (jvm != null) {
        awaitAgentStartedInServerLog();
        String output = stop(jvm) + serverLog();
        DistributionChecks.assertAgentRanWithoutFailure(output);
        assertThat(output).doesNotContain(NOT_LIMITED);
      }
    } finally {
      if (jvm != null) {
        jvm.close();
      }
      if (app != null) {
        app.delete();
      }
      delete();
    }
  }

  /**
   * The server's log once it holds the agent's line saying it started, which its own thread logs
   * just after the first request; waits at most 10 s.
   */
  private String awaitAgentStartedInServerLog() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    String log = serverLog();
    while (!log.contains("Sluice: agent started in ") && System.nanoTime() < deadline) {
      Thread.sleep(50);
      log = serverLog();
    }
    return log;
  }
}
