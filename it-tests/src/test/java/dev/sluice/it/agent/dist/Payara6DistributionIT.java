package dev.sluice.it.agent.dist;

import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Payara Server 6 (Jakarta EE 10, jakarta.servlet 6.0), its domain1 started by {@code asadmin
 * start-domain --verbose} with the agent flag as one more {@code jvm-options} of the server's
 * configuration (what {@code asadmin create-jvm-options} writes) and the test app in {@code
 * autodeploy}. Payara runs its web container in Felix bundles and takes their boot delegation list
 * from {@code config/osgi.properties}, which a system property of that name replaces: the agent
 * sets it to the file's list and its bridge's package in {@code premain}.
 */
class Payara6DistributionIT extends EeServerScenario {
  private static final Duration START = Duration.ofSeconds(240);
  private PayaraDistribution payara;

  @Override
  boolean javax() {
    return false;
  }

  @Override
  ChildJvm start(String name, AgentWebApp app, String agentFlag) throws Exception {
    payara = PayaraDistribution.of("sluice.it.payaraDistribution");
    payara.deploy("app", app.dir());
    ChildJvm jvm = payara.start(name, List.of(agentFlag));
    jvm.awaitLineContaining("[AutoDeploy] Successfully autodeployed", START);
    return jvm;
  }

  /**
   * Payara's launcher sets up {@code java.util.logging} with the JDK's console handler, and its log
   * service adds server.log's handler only later: the rules load in between.
   */
  @Override
  boolean logsTheRulesBeforeItsLogFile() {
    return true;
  }

  @Override
  int port() {
    return payara.port();
  }

  @Override
  String serverLog() throws IOException {
    return payara.serverLog();
  }

  @Override
  String stop(ChildJvm jvm) throws Exception {
    payara.stop(jvm, Duration.ofSeconds(90));
    return jvm.output();
  }

  @Override
  void delete() throws IOException {
    if (payara != null) {
      payara.delete();
    }
  }
}
