package dev.sluice.it.agent.robust;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One web app directory and the container JVMs serving it with the agent, for one test. Closing
 * stops the JVMs and deletes the app, whatever the test did.
 */
final class AgentRun implements AutoCloseable {
  private final AgentWebApp app;
  private final List<AgentServer> servers = new ArrayList<>();

  AgentRun(AgentWebApp app) {
    this.app = app;
  }

  AgentWebApp app() {
    return app;
  }

  /** A container JVM with {@code -javaagent:sluice-agent.jar=config=<the app's config>}. */
  AgentServer start(AgentContainer container) {
    return start(container, "=config=" + app.config(), List.of(), Map.of());
  }

  /** A container JVM with {@code agentSuffix} after the agent jar (see {@link AgentServer}). */
  AgentServer start(
      AgentContainer container,
      String agentSuffix,
      List<String> options,
      Map<String, String> environment) {
    AgentServer server = AgentServer.start(container, app, agentSuffix, options, environment);
    servers.add(server);
    return server;
  }

  /** The agent started, and never said that it or a request failed. */
  static void assertStartedCleanly(AgentServer server) {
    assertThat(server.jvm().output())
        .contains("Sluice: agent started in ")
        .doesNotContain("Sluice: could not instrument")
        .doesNotContain("because the agent failed")
        .doesNotContain("the agent could not start");
  }

  @Override
  public void close() throws Exception {
    try {
      for (AgentServer server : servers) {
        server.close();
      }
    } finally {
      app.delete();
    }
  }
}
