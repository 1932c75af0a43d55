package dev.sluice.it.agent.robust;

import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.agent.robust.Limits.HELLO_LIMIT;
import static dev.sluice.it.agent.robust.Limits.HELLO_RULES;
import static dev.sluice.it.agent.robust.Limits.IN_FORCE_WITHIN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code enabled: false} switches the agent off without a restart: within two seconds every request
 * passes with no rate-limit header, and switching back on limits again as promptly.
 */
class AgentKillSwitchIT {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;
  private static final String DISABLED = "enabled: false\n" + HELLO_RULES;

  @Test
  void enabledFalseLetsEverythingThroughAndEnabledAgainLimits() throws Exception {
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, HELLO_RULES))) {
      AgentServer server = run.start(CONTAINER);
      Http http = server.http();
      Limits.assertLimitedTo(http, "/api/hello", "10.25.0.1", HELLO_LIMIT, "hello");

      long start = System.nanoTime();
      run.app().replaceConfig(DISABLED);
      Duration off = Limits.awaitSince(start, http, "/api/hello", "10.25.0.1", Limits::unlimited);
      Limits.report("enabled: false", off);
      assertThat(off).isLessThanOrEqualTo(IN_FORCE_WITHIN);
      Logs.await(
          server,
          "WARNING: Sluice: disabled by `enabled: false` in "
              + run.app().config()
              + "; nothing is limited");
      Limits.assertUnlimited(http, "/api/hello", "10.25.0.1", HELLO_LIMIT + 3);
      Limits.assertUnlimited(http, "/api/hello", "10.25.0.2", HELLO_LIMIT + 3);

      start = System.nanoTime();
      run.app().replaceConfig(HELLO_RULES);
      Duration on =
          Limits.awaitSince(start, http, "/api/hello", "10.25.0.3", Limits::hasRateLimitHeaders);
      Limits.report("enabled again", on);
      assertThat(on).isLessThanOrEqualTo(IN_FORCE_WITHIN);
      Limits.assertLimitedTo(http, "/api/hello", "10.25.0.4", HELLO_LIMIT, "hello");
      // The counts of the rules are kept through one switch off, so the spent client stays spent.
      assertRejected(http.get("/api/hello", "10.25.0.1"), "hello");
      AgentRun.assertStartedCleanly(server);
    }
  }
}
