package dev.sluice.it.agent.dist;

import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Open Liberty 26 (its Web Profile 8 zip: javax, Servlet 4.0), started by {@code bin/server run}
 * with the agent flag as the one line of the server's {@code jvm.options} and the test app in
 * {@code dropins}. Liberty runs its servlet container in Equinox bundles and appends the packages of
 * {@code -Dorg.osgi.framework.bootdelegation} to its own boot delegation list: the agent adds its
 * bridge's package there in {@code premain}.
 */
class OpenLibertyDistributionIT extends EeServerScenario {
  private static final Duration START = Duration.ofSeconds(180);
  private LibertyDistribution liberty;

  @Override
  boolean javax() {
    return true;
  }

  @Override
  ChildJvm start(String name, AgentWebApp app, String agentFlag) throws Exception {
    liberty = LibertyDistribution.of("sluice.it.libertyDistribution");
    liberty.deploy("app", app.dir());
    ChildJvm jvm = liberty.start(name, List.of(agentFlag));
    // CWWKZ0001I: the application started; CWWKF0011I: the server is ready.
    jvm.awaitLineContaining("CWWKZ0001I: Application app started", START);
    jvm.awaitLineContaining("CWWKF0011I", START);
    return jvm;
  }

  @Override
  int port() {
    return liberty.port();
  }

  @Override
  String serverLog() throws IOException {
    return liberty.messagesLog();
  }

  /** SIGTERM: Liberty's shutdown hook stops the server (CWWKE0036I). */
  @Override
  String stop(ChildJvm jvm) throws Exception {
    Processes.stopGracefully(jvm, Duration.ofSeconds(60));
    return Processes.awaitOutput(jvm, "CWWKE0036I");
  }

  @Override
  void delete() throws IOException {
    if (liberty != null) {
      liberty.delete();
    }
  }
}
