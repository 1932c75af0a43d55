package dev.sluice.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the publishing commands do before Redis answers anything; what they do with it is tested
 * against real servers in it-tests ({@code PublishCommandsIT}).
 */
class PublishTest {
  private static final String VALID =
      "rules: [{ id: a, match: { path: /a }, key: ip, limit: 1, window: 1s }]\n";

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String command, String... args) {
    return Publish.run(
        "sluice",
        command,
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Path write(String name, String yaml) throws IOException {
    return Files.writeString(dir.resolve(name), yaml);
  }

  /** A port nothing listens on: connections are refused at once. */
  private static String nowhere() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return "redis://127.0.0.1:" + socket.getLocalPort();
    }
  }

  @Test
  void anInvalidFileIsRefusedAsCheckWouldBeforeRedisIsAsked() throws Exception {
    Path file = write("bad.yaml", "rules: [{ id: a, match: { path: /a }, key: ip, limit: 0 }]\n");
    assertThat(run("push", file.toString(), "--redis", nowhere())).isEqualTo(1);
    assertThat(err()).startsWith(file + ":1:").contains("rules[0] (a).limit").contains("2 errors");
    assertThat(out.size()).isZero();
  }

  @Test
  void anUnreadableFileIsAUsageError() throws Exception {
    assertThat(run("push", dir.resolve("absent.yaml").toString(), "--redis", nowhere()))
        .isEqualTo(2);
    assertThat(err()).contains("absent.yaml: cannot read: ");
  }

  @Test
  void exactlyOneRedisMustBeNamed() throws Exception {
    Path file = write("ok.yaml", VALID);
    assertThat(run("push", file.toString())).isEqualTo(2);
    assertThat(err())
        .startsWith("sluice push: give exactly one of --config, --redis or --cluster\n")
        .contains("usage: sluice push <ratelimit.yaml> <redis> [--message <text>]\n")
        .contains("<redis>: --config <a JVM's ratelimit.yaml> | --redis <url>");
  }

  @Test
  void argumentsAreCounted() throws Exception {
    assertThat(run("history", "extra", "--redis", nowhere())).isEqualTo(2);
    assertThat(err()).startsWith("sluice history: takes no arguments but options\n");
  }

  @Test
  void aConfigWithoutRedisNamesNoTarget() throws Exception {
    Path local = write("local.yaml", VALID);
    assertThat(run("history", "--config", local.toString())).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "sluice history: "
                + local
                + " has no Redis store (store.type: redis), so it names no Redis to publish in\n");
  }

  @Test
  void redisThatCannotBeReachedIsExitCodeThree() throws Exception {
    Path file = write("ok.yaml", VALID);
    String redis = nowhere();
    assertThat(run("push", file.toString(), "--redis", redis)).isEqualTo(3);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("OK " + file + ": 1 rule (a JVM that follows them keeps its own local store")
        .doesNotContain("store memory");
    assertThat(err()).startsWith("sluice push: cannot use redis " + redis.substring(8) + ": ");
  }

  @Test
  void aPublishedStoreSectionIsWarnedAbout() throws Exception {
    Path file = write("with-store.yaml", "store: { type: memory }\n" + VALID);
    assertThat(run("push", file.toString(), "--redis", nowhere())).isEqualTo(3);
    assertThat(err())
        .startsWith(
            "warning: "
                + file
                + " has store or fleet sections: JVMs that take their rules from Redis"
                + " (rules_from: redis) do not apply them, they keep their own local file's\n");
  }

  @Test
  void publishedClientIpAndAdminSectionsAreWarnedAbout() throws Exception {
    Path file =
        write(
            "with-admin.yaml",
            "client_ip: { trusted_proxies: [\"0.0.0.0/0\"] }\n"
                + "admin: { allow: [\"0.0.0.0/0\"], allow_without_token: true }\n"
                + VALID);
    assertThat(run("push", file.toString(), "--redis", nowhere())).isEqualTo(3);
    assertThat(err())
        .contains(
            "\nwarning: "
                + file
                + " has client_ip and admin sections: JVMs that take their rules from Redis"
                + " (rules_from: redis) do not apply them, they keep their own local file's\n");
  }

  /** Issue 27: history --config warned about an unset SLUICE_ADMIN_TOKEN, which it never uses. */
  @Test
  void theConfigFileIsReadForItsStoreWithoutWarningsAboutWhatIsNotUsed() throws Exception {
    Path local =
        write(
            "local.yaml",
            "rules_from: redis\nstore: { type: redis, redis: { url: "
                + nowhere()
                + " } }\nadmin: { token: \"${SLUICE_R28_NEVER_SET_TOKEN}\" }\n"
                + VALID);
    assertThat(run("history", "--config", local.toString())).isEqualTo(3);
    assertThat(err()).doesNotContain("warning", "SLUICE_R28_NEVER_SET_TOKEN");
  }
}
