package dev.sluice.it.agent.robust;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent leaves the JVM's global state to the application: an application that installs its own
 * {@code java.util.logging.LogManager} and then the platform MBean server from its main (JBoss
 * Modules does so for WildFly, which refuses to boot otherwise) gets both, and Sluice's start-up
 * lines still appear, through the application's log manager.
 */
class AgentLeavesGlobalStateIT {
  private static final Duration WITHIN = Duration.ofSeconds(60);

  @Test
  void theApplicationsOwnLogManagerAndMBeanServerWin(@TempDir Path dir) throws Exception {
    Path config = config(dir);
    try (ChildJvm jvm = start(dir, "config=" + config)) {
      assertTheApplicationSetItUp(jvm);
      // The rules load once the application's log manager is in place, and log through it (had
      // anything of the agent logged before, the log manager would be the JDK's).
      Logs.await(jvm, "Sluice: 1 rule in force from " + config);
      assertThat(jvm.output()).doesNotContain("the agent could not start");
    }
  }

  /**
   * A typo in on_invalid_config is said, from premain, without choosing the log manager: WildFly
   * refused to boot when this one line went to java.util.logging first.
   */
  @Test
  void aTypoInOnInvalidConfigIsSaidThroughTheApplicationsLogManager(@TempDir Path dir)
      throws Exception {
    Path config = config(dir);
    try (ChildJvm jvm = start(dir, "config=" + config + ",on_invalid_config=refuse_strat")) {
      assertTheApplicationSetItUp(jvm);
      Logs.await(
          jvm,
          "Sluice: on_invalid_config must be serve or refuse_start, got \"refuse_strat\", did you"
              + " mean refuse_start?; serving");
      Logs.await(jvm, "Sluice: 1 rule in force from " + config);
    }
  }

  private static Path config(Path dir) throws IOException {
    return Files.writeString(
        dir.resolve("ratelimit.yaml"),
        "rules:\n  - { id: hello, match: { path: /hello }, key: ip, limit: 3, window: 1m }\n");
  }

  private static ChildJvm start(Path dir, String agentArgument) {
    List<String> command =
        List.of(
            ChildJvm.java(),
            "-javaagent:" + Settings.agentJar() + "=" + agentArgument,
            "-cp",
            ChildJvm.classPath(LateSetUpApp.class),
            LateSetUpApp.class.getName());
    return ChildJvm.start("late-set-up", command, Map.of(), dir);
  }

  private static void assertTheApplicationSetItUp(ChildJvm jvm) throws InterruptedException {
    String setUp = jvm.awaitLine("SET_UP ", WITHIN);
    assertThat(setUp)
        .as("what main set up; the JVM's output so far:\n%s", jvm.output())
        .isEqualTo(
            "SET_UP mbeanServersAtMain=0 logManager="
                + LateSetUpApp.OwnLogManager.class.getName()
                + " mbeanServerBuiltByApp=true");
  }
}
