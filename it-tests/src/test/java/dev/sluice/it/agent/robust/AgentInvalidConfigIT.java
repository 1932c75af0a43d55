package dev.sluice.it.agent.robust;

import static dev.sluice.it.agent.robust.Limits.HELLO_LIMIT;
import static dev.sluice.it.agent.robust.Limits.HELLO_RULES;
import static dev.sluice.it.agent.robust.Limits.IN_FORCE_WITHIN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The app starts with an invalid ratelimit.yaml: it serves unlimited, the log names the file, line,
 * column and field of each error, and once the file is fixed its rules are in force within two
 * seconds. A YAML syntax error in between is reported by place too, and changes nothing.
 */
class AgentInvalidConfigIT {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;

  /** HELLO_RULES with a limit of 0. */
  private static final String ZERO_LIMIT = HELLO_RULES.replace("limit: 3", "limit: 0");

  /** A mapping entry indented under a list item's line: YAML itself fails at line 4. */
  private static final String BAD_INDENT =
      """
      rules:
        - id: hello
          match: { path: /api/hello }
         key: ip
      """;

  @Test
  void anInvalidFileLimitsNothingSaysWhereAndIsInForceWithinTwoSecondsOnceFixed() throws Exception {
    try (AgentRun run = new AgentRun(AgentWebApp.create(CONTAINER, ZERO_LIMIT))) {
      Path config = run.app().config();
      AgentServer server = run.start(CONTAINER);
      Http http = server.http();
      List<String> lines = ZERO_LIMIT.lines().toList();
      int line = 1;
      while (!lines.get(line - 1).contains("limit: 0")) {
        line++;
      }
      int column = lines.get(line - 1).indexOf("limit: 0") + "limit: ".length() + 1;
      Logs.await(
          server,
          "WARNING: Sluice rejected "
              + config
              + "; nothing is limited until it is fixed:\n"
              + config
              + ":"
              + line
              + ":"
              + column
              + ": rules[0] (hello).limit: must be a whole number from 1 to 1000000000, got \"0\"");
      Limits.assertUnlimited(http, "/api/hello", "10.22.0.1", HELLO_LIMIT + 3);

      run.app().replaceConfig(BAD_INDENT);
      Logs.await(server, "WARNING: Sluice rejected " + config);
      Logs.await(server, config + ":4:4: not valid YAML: ");
      Thread.sleep(Limits.POLL_FOR.toMillis()); // every chance to be (wrongly) applied
      Limits.assertUnlimited(http, "/api/hello", "10.22.0.2", HELLO_LIMIT + 3);

      long start = System.nanoTime();
      run.app().replaceConfig(HELLO_RULES);
      Duration took =
          Limits.awaitSince(start, http, "/api/hello", "10.22.0.3", Limits::hasRateLimitHeaders);
      Limits.report("the fixed " + config, took);
      assertThat(took).isLessThanOrEqualTo(IN_FORCE_WITHIN);
      Limits.assertLimitedTo(http, "/api/hello", "10.22.0.4", HELLO_LIMIT, "hello");
      AgentRun.assertStartedCleanly(server);
    }
  }
}
