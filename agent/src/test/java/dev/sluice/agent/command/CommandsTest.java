package dev.sluice.agent.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jar's commands, short of attaching to a process (the integration tests do that). */
class CommandsTest {
  private static final String USAGE =
      "usage: java -jar sluice-agent.jar check <ratelimit.yaml>\n"
          + "       java -jar sluice-agent.jar simulate --rules <ratelimit.yaml> --log <access.log>"
          + " [--format F] [--json] [--top N]\n"
          + "       java -jar sluice-agent.jar push <ratelimit.yaml> <redis> [--message <text>]\n"
          + "       java -jar sluice-agent.jar history <redis>\n"
          + "       java -jar sluice-agent.jar rollback <version> <redis> [--message <text>]\n"
          + "         <redis>: --config <a JVM's ratelimit.yaml> | --redis <url> | --cluster"
          + " <url>,<url>..., with --key-prefix <prefix> unless rl\n"
          + "       java -jar sluice-agent.jar attach <pid> [config=<path to ratelimit.yaml>]\n";

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Commands.run(
        args,
        new File("sluice-agent.jar"),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  private Path write(String yaml) throws IOException {
    return Files.writeString(dir.resolve("ratelimit.yaml"), yaml);
  }

  @Test
  void checkOfAValidFileSaysOk() throws IOException {
    Path file =
        write("rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }\n");
    assertThat(run("check", file.toString())).isZero();
    assertThat(out()).startsWith("OK " + file + ": 1 rule, store memory");
    assertThat(err()).isEmpty();
  }

  @Test
  void checkOfAnInvalidFileNamesTheLineAndColumn() throws IOException {
    Path file =
        write("rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 0, window: 1m }\n");
    assertThat(run("check", file.toString())).isEqualTo(1);
    assertThat(err()).startsWith(file + ":2:").contains(": rules[0] (a).limit: ");
    assertThat(err()).endsWith("1 error in " + file + "\n");
    assertThat(out()).isEmpty();
  }

  @Test
  void checkOfAMissingFileIsAUsageError() {
    Path missing = dir.resolve("absent.yaml");
    assertThat(run("check", missing.toString())).isEqualTo(2);
    assertThat(err()).startsWith(missing + ": cannot read: ");
  }

  @Test
  void checkWithoutAFileNamesTheAgentJarInItsUsage() {
    assertThat(run("check")).isEqualTo(2);
    assertThat(err()).isEqualTo("usage: java -jar sluice-agent.jar check <ratelimit.yaml>\n");
  }

  @Test
  void noCommandPrintsTheUsage() {
    assertThat(run()).isEqualTo(2);
    assertThat(err()).isEqualTo(USAGE);
    assertThat(out()).isEmpty();
  }

  @Test
  void anUnknownCommandIsSaidToBeUnknownBeforeTheUsage() {
    assertThat(run("verify", "ratelimit.yaml")).isEqualTo(2);
    assertThat(err()).isEqualTo("unknown command \"verify\"\n" + USAGE);
  }

  @Test
  void aMisspeltCommandGetsAGuess() {
    assertThat(run("chek", "ratelimit.yaml")).isEqualTo(2);
    assertThat(err()).isEqualTo("unknown command \"chek\", did you mean check?\n" + USAGE);
  }

  @Test
  void aShortOptionOfPushIsNamedByItsLongName() throws IOException {
    Path file = write("rules: [{ id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }]\n");
    assertThat(run("push", file.toString(), "--redis", "redis://127.0.0.1:1", "-m", "x"))
        .isEqualTo(2);
    assertThat(err())
        .startsWith(
            "java -jar sluice-agent.jar push: unknown option -m: options are spelt out, did you"
                + " mean --message?\n");
  }

  @Test
  void attachWithoutAPidOrWithTooManyArgumentsPrintsTheUsage() {
    assertThat(run("attach")).isEqualTo(2);
    assertThat(run("attach", "123", "config=a.yaml", "extra")).isEqualTo(2);
    assertThat(err()).isEqualTo(USAGE + USAGE);
  }

  @Test
  void thePublishingCommandsAreTheJars() throws IOException {
    Path file = write("rules: [{ id: a, match: { path: /a }, key: ip, limit: 0, window: 1m }]\n");
    assertThat(run("push", file.toString(), "--redis", "redis://127.0.0.1:1")).isEqualTo(1);
    assertThat(err()).contains("rules[0] (a).limit");
    assertThat(run("rollback", "--redis", "redis://127.0.0.1:1")).isEqualTo(2);
    assertThat(err()).contains("usage: java -jar sluice-agent.jar rollback <version> <redis>");
  }

  @Test
  void attachToAProcessThatDoesNotExistSaysSo() {
    assertThat(run("attach", "2147483646")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "attach: no such process 2147483646 (jps -l lists the JVMs you may attach to, with"
                + " their main class or jar)\n");
  }

  @Test
  void attachMakesTheConfigPathAbsoluteOnTheAttachingSide() throws IOException {
    Path file = write("rules: []\n");
    Path relative = Path.of("").toAbsolutePath().relativize(file);
    assertThat(Commands.withAbsoluteConfig("config=" + relative + ",on_invalid_config=serve"))
        .isEqualTo("config=" + file + ",on_invalid_config=serve");
    assertThat(Commands.withAbsoluteConfig(null)).isNull();
  }

  @Test
  void attachWithAConfigThatDoesNotExistIsRefusedBeforeAttaching() {
    long self = ProcessHandle.current().pid();
    assertThat(run("attach", Long.toString(self), "config=no/such/ratelimit.yaml")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "attach: no file "
                + Path.of("no/such/ratelimit.yaml").toAbsolutePath().normalize()
                + ": config= names the ratelimit.yaml to load\n");
  }

  @Test
  void attachToAPidThatIsNoNumberIsAUsageError() {
    assertThat(run("attach", "abc")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "attach: the process id must be a number, got \"abc\" (jps -l lists the JVMs you may"
                + " attach to, with their main class or jar)\n");
    assertThat(run("attach", "-1", "config=a.yaml")).isEqualTo(2);
    assertThat(out()).isEmpty();
  }

  @Test
  void simulateReplaysALogThroughTheRules() throws IOException {
    Path rules =
        write("rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 1, window: 1m }\n");
    Path log =
        Files.writeString(
            dir.resolve("access.log"),
            "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 200 1\n"
                + "10.0.0.1 - - [10/Oct/2000:13:55:37 -0700] \"GET /a HTTP/1.1\" 200 1\n");
    assertThat(
            run(
                "simulate",
                "--rules",
                rules.toString(),
                "--log",
                log.toString(),
                "--format",
                "common"))
        .isZero();
    assertThat(out())
        .contains("\nrule a: 1/1m sliding_window, /a, by ip\n")
        .contains("  would-be 429s   1 (50.0%)\n");
    assertThat(err()).isEmpty();
  }

  @Test
  void simulateWithInvalidRulesSaysWhereAsCheckDoesAndExitsOne() throws IOException {
    Path rules =
        write("rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 0, window: 1m }\n");
    assertThat(run("simulate", "--rules", rules.toString(), "--log", "access.log")).isEqualTo(1);
    assertThat(err()).startsWith(rules + ":2:").endsWith("1 error in " + rules + "\n");
    assertThat(out()).isEmpty();
  }

  @Test
  void simulateWithoutALogNamesTheAgentJarInItsUsageAndExitsTwo() {
    assertThat(run("simulate", "--rules", "ratelimit.yaml")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "java -jar sluice-agent.jar simulate: --rules and --log are required\n"
                + "usage: java -jar sluice-agent.jar simulate --rules <ratelimit.yaml>"
                + " --log <access.log|access.log.gz|-> [--format combined|common|tomcat|"
                + "'<AccessLogValve pattern>'] [--json] [--top N]\n");
    err.reset();
    assertThat(run("simulate", "--rules", "ratelimit.yaml", "--log", "a.log", "--format", "w3c"))
        .isEqualTo(2);
    assertThat(err()).startsWith("java -jar sluice-agent.jar simulate: unknown format \"w3c\"");
  }
}
