package dev.sluice.it.agent.robust;

import static dev.sluice.it.agent.robust.Limits.HELLO_LIMIT;
import static dev.sluice.it.agent.robust.Limits.HELLO_RULES;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A corrupt agent argument never stops the app: the agent logs that the argument is ignored and
 * what it expected, and reads the config from where it would without one, {@code -Dsluice.config}
 * or else {@code SLUICE_CONFIG}, whose file limits.
 */
class AgentCorruptArgumentIT {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;
  private static final String EXPECTED =
      "(expected config=<path to ratelimit.yaml> or on_invalid_config=serve|refuse_start)";

  @ParameterizedTest(name = "-javaagent:sluice-agent.jar{0}, config from {1}")
  @CsvSource({
    "=bogus,    property, unknown agent argument \"bogus\" ignored",
    "=config,   property, the agent argument \"config\" names no file; ignored",
    "=config=,  property, the agent argument \"config=\" names no file; ignored",
    "=confg=/x, property, unknown agent argument \"confg=/x\" ignored",
    "=confg=/x, environment, unknown agent argument \"confg=/x\" ignored",
  })
  void theAppStartsTheLogSaysWhatWasExpectedAndTheConfigFallsBack(
      String suffix, String from, String problem) throws Exception {
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, HELLO_RULES))) {
      String config = run.app().config().toString();
      AgentServer server =
          from.equals("environment")
              ? run.start(CONTAINER, suffix, List.of(), Map.of("SLUICE_CONFIG", config))
              : run.start(CONTAINER, suffix, List.of("-Dsluice.config=" + config), Map.of());
      Logs.await(server, "WARNING: Sluice: " + problem + " " + EXPECTED + "\n");
      Limits.assertLimitedTo(server.http(), "/api/hello", "10.24.0.1", HELLO_LIMIT, "hello");
      // The agent says where it read its rules once the app serves (see docs/agent.md).
      Logs.await(server, "rules from " + config + "\n");
      AgentRun.assertStartedCleanly(server);
    }
  }
}
