package dev.sluice.it.agent.robust;

import static dev.sluice.it.agent.robust.Limits.HELLO_LIMIT;
import static dev.sluice.it.agent.robust.Limits.HELLO_RULES;
import static dev.sluice.it.agent.robust.Limits.IN_FORCE_WITHIN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code config=} names a file that is not there yet: the app starts and serves, the log names the
 * path and says nothing is limited, and once the file appears its rules are in force within two
 * seconds. Once in a directory that exists (file events), once in one that does not (polling).
 */
class AgentMissingConfigIT {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;

  @Test
  void aFileCreatedLaterInAnExistingDirectoryIsInForceWithinTwoSeconds() throws Exception {
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, HELLO_RULES))) {
      Path config = run.app().config();
      Files.delete(config);
      check(run, config, "10.20.0.");
    }
  }

  @Test
  void aFileCreatedLaterInADirectoryThatDidNotExistIsInForceWithinTwoSeconds() throws Exception {
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, HELLO_RULES))) {
      Path config = run.app().config().resolveSibling("not-yet").resolve("ratelimit.yaml");
      check(run, config, "10.21.0.");
    }
  }

  private static void check(AgentRun run, Path config, String clients) throws Exception {
    AgentServer server = run.start(CONTAINER, "=config=" + config, List.of(), Map.of());
    Http http = server.http();
    Logs.await(
        server,
        "WARNING: Sluice found no config at " + config + "; nothing is limited until it appears.");
    Limits.assertUnlimited(http, "/api/hello", clients + "1", HELLO_LIMIT + 3);

    long start = System.nanoTime();
    create(config, HELLO_RULES);
    Duration took =
        Limits.awaitSince(start, http, "/api/hello", clients + "2", Limits::hasRateLimitHeaders);
    Limits.report("a created " + config, took);
    assertThat(took).isLessThanOrEqualTo(IN_FORCE_WITHIN);
    Limits.assertLimitedTo(http, "/api/hello", clients + "3", HELLO_LIMIT, "hello");
    Logs.await(server, "Sluice: 1 rule in force from " + config);
    AgentRun.assertStartedCleanly(server);
  }

  /** Creates the file as a deployment would: written beside it, then moved in place. */
  private static void create(Path config, String yaml) throws Exception {
    Files.createDirectories(config.getParent());
    Path temp = config.resolveSibling(".ratelimit.yaml.new");
    Files.writeString(temp, yaml);
    Files.move(temp, config, StandardCopyOption.ATOMIC_MOVE);
  }
}
