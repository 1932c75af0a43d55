package dev.sluice.it.agent.robust;

import static dev.sluice.it.agent.robust.Limits.HELLO_LIMIT;
import static dev.sluice.it.agent.robust.Limits.HELLO_RULES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.jvm.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code on_invalid_config=refuse_start}: with an invalid ratelimit.yaml the container JVM does not
 * start, after printing each error by place; with a valid one it starts and limits as usual.
 */
class AgentRefuseStartIT {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;
  private static final String REFUSE_START = ",on_invalid_config=refuse_start";
  private static final Duration EXIT_WITHIN = Duration.ofSeconds(60);

  @Test
  void anInvalidFileStopsTheJvmWithStatusOneAfterSayingWhere() throws Exception {
    String zeroLimit = HELLO_RULES.replace("limit: 3", "limit: 0");
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, zeroLimit));
        ChildJvm jvm =
            AgentServer.launch(
                CONTAINER, run.app(), "=config=" + run.app().config() + REFUSE_START)) {
      Path config = run.app().config();
      jvm.awaitLineContaining("Sluice: the JVM exits with status 1", EXIT_WITHIN);
      assertThat(jvm.awaitExit(EXIT_WITHIN)).isEqualTo(1);
      assertThat(jvm.output())
          .contains(
              "Sluice rejected "
                  + config
                  + "; refusing to start (on_invalid_config=refuse_start):\n"
                  + config
                  + ":")
          .contains(": rules[0] (hello).limit: must be a whole number from 1 to 1000000000")
          .doesNotContain("SERVING ")
          .doesNotContain("the agent could not start");
    }
  }

  @Test
  void aValidFileStartsAndLimits() throws Exception {
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, HELLO_RULES))) {
      AgentServer server =
          run.start(CONTAINER, "=config=" + run.app().config() + REFUSE_START, List.of(), Map.of());
      Limits.assertLimitedTo(server.http(), "/api/hello", "10.25.0.1", HELLO_LIMIT, "hello");
      AgentRun.assertStartedCleanly(server);
    }
  }
}
