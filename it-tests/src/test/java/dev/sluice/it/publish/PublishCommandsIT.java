package dev.sluice.it.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RulesVersion;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServers;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code push}, {@code history} and {@code rollback} as operators run them: {@code java -jar
 * sluice-agent.jar}, against real Redis servers, exit codes and output included.
 */
class PublishCommandsIT {
  private static final Duration RUN = Duration.ofSeconds(60);

  @TempDir Path dir;

  /** What a command printed (stdout and stderr) and its exit code. */
  private record Ran(int code, String output) {}

  private Ran sluice(Map<String, String> environment, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of(ChildJvm.java(), "-jar", Settings.agentJar().toString()));
    command.addAll(List.of(args));
    try (ChildJvm jvm = ChildJvm.start(args[0], command, environment, dir)) {
      int code = jvm.awaitExit(RUN);
      String output = jvm.awaitOutput(RUN);
      System.out.print("$ sluice " + String.join(" ", args) + "\n" + output);
      return new Ran(code, output);
    }
  }

  private Ran sluice(String... args) throws Exception {
    return sluice(Map.of(), args);
  }

  private Path write(String name, String yaml) throws Exception {
    return Files.writeString(dir.resolve(name), yaml);
  }

  private static String rules(String limit) {
    return "rules: [{ id: a, match: { path: /a }, key: ip, limit: " + limit + ", window: 1m }]\n";
  }

  private static String version(Path file) throws Exception {
    return RulesVersion.of(Files.readAllBytes(file));
  }

  @Test
  void pushHistoryAndRollbackWithTheirExitCodes() throws Exception {
    try (RedisProcess redis = RedisServers.localProcess()) {
      String url = redis.uri();
      Path first = write("first.yaml", rules("5"));
      Path second = write("second.yaml", rules("50"));
      Path bad = write("bad.yaml", rules("0"));

      Ran pushed = sluice("push", "first.yaml", "--redis", url, "--message", "first limits");
      assertThat(pushed.code()).isZero();
      assertThat(pushed.output())
          .contains("OK first.yaml: 1 rule ")
          .contains(
              "Published first.yaml as version 1 (rules version "
                  + version(first)
                  + ") in redis "
                  + redis.host()
                  + ":"
                  + redis.port()
                  + " {rl:rules}; JVMs with rules_from: redis apply it within 2 seconds."
                  + " Redis keeps the last 50 versions");

      Ran again = sluice("push", "first.yaml", "--redis", url);
      assertThat(again.code()).isZero();
      assertThat(again.output())
          .contains("Nothing published: the current version, 1 in redis ")
          .contains("has this content already (rules version " + version(first) + ")");

      Ran refused = sluice("push", "bad.yaml", "--redis", url);
      assertThat(refused.code()).isEqualTo(1);
      assertThat(refused.output())
          .contains("bad.yaml:1:")
          .contains("rules[0] (a).limit")
          .contains("1 error in bad.yaml")
          .doesNotContain("Published");

      assertThat(sluice("push", "second.yaml", "--redis", url, "--message", "raise a").code())
          .isZero();
      Ran rolledBack = sluice("rollback", "1", "--redis", url, "--message", "too high");
      assertThat(rolledBack.code()).isZero();
      assertThat(rolledBack.output())
          .contains("OK version 1: 1 rule ")
          .contains("Published version 1 as version 3 (rules version " + version(first) + ")");
      assertThat(sluice("rollback", "42", "--redis", url).output())
          .contains("keeps no version 42 (it keeps the last 50; history lists them)");
      assertThat(sluice("rollback", "42", "--redis", url).code()).isEqualTo(1);

      Ran history = sluice("history", "--redis", url);
      assertThat(history.code()).isZero();
      String who = System.getProperty("user.name");
      String host = InetAddress.getLocalHost().getHostName();
      String at = "20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ";
      assertThat(history.output().lines().filter(l -> !l.startsWith("SLF4J")).toList())
          .hasSize(5)
          .satisfies(
              lines -> {
                assertThat(lines.get(0).split(" +"))
                    .containsExactly(
                        "",
                        "VERSION",
                        "RULES",
                        "VERSION",
                        "PUBLISHED",
                        "(UTC)",
                        "BY",
                        "FROM",
                        "MESSAGE");
                assertThat(lines.get(1))
                    .matches(
                        "\\*  3 +"
                            + version(first)
                            + " +"
                            + at
                            + " +"
                            + who
                            + " +"
                            + host
                            + " +rollback to version 1: too high");
                assertThat(lines.get(2))
                    .matches("   2 +" + version(second) + " +" + at + " .* raise a");
                assertThat(lines.get(3))
                    .matches("   1 +" + version(first) + " +" + at + " .* first limits");
                assertThat(lines.get(4))
                    .isEqualTo(
                        "* marks the current version. redis "
                            + redis.host()
                            + ":"
                            + redis.port()
                            + " {rl:rules} keeps the last 50 versions");
              });
      assertThat(bad).exists();

      assertThat(sluice("push", "first.yaml").code()).as("no Redis named").isEqualTo(2);
      redis.kill();
      Ran down = sluice("push", "second.yaml", "--redis", url);
      assertThat(down.code()).isEqualTo(3);
      assertThat(down.output()).contains("sluice-agent.jar push: cannot use redis " + redis.host());
    }
  }

  /**
   * {@code --config} reaches the Redis a JVM's own file names, its password from the environment
   * and its key prefix included; a URL on the command line may name the variable too, so the
   * password never shows in the list of processes.
   */
  @Test
  void aJvmsOwnFileOrAUrlWithAVariableNamesAPasswordProtectedRedis() throws Exception {
    String password = "s3cret@:/ x";
    try (RedisProcess redis = RedisServers.localProcess(password)) {
      String url = "redis://:${REDIS_PASSWORD}@" + redis.host() + ":" + redis.port();
      write(
          "local.yaml",
          "rules_from: redis\nstore: { type: redis, key_prefix: app1, redis: { url: '"
              + url
              + "' } }\n"
              + rules("1"));
      write("rules.yaml", "store: { type: memory }\n" + rules("7"));
      Map<String, String> env = Map.of("REDIS_PASSWORD", password);

      Ran pushed = sluice(env, "push", "rules.yaml", "--config", "local.yaml");
      assertThat(pushed.code()).isZero();
      assertThat(pushed.output())
          .contains(
              "warning: rules.yaml has store or fleet sections other than local.yaml's: JVMs that"
                  + " take their rules from Redis (rules_from: redis) do not apply them")
          .contains("as version 1")
          .contains("{app1:rules}")
          .doesNotContain(password);

      Ran history = sluice(env, "history", "--redis", url, "--key-prefix", "app1");
      assertThat(history.code()).isZero();
      assertThat(history.output()).contains("*  1 ");

      Ran unset = sluice("history", "--redis", url, "--key-prefix", "app1");
      assertThat(unset.code()).isEqualTo(2);
      assertThat(unset.output())
          .contains("a Redis URL names the environment variable REDIS_PASSWORD, which is not set");
    }
  }

  @Test
  void aRedisThatIsNotThereIsExitCodeThree() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Ran history = sluice("history", "--redis", "redis://127.0.0.1:" + port);
    assertThat(history.code()).isEqualTo(3);
    assertThat(history.output()).contains("cannot use redis 127.0.0.1:" + port);
  }
}
