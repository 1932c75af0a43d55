package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Check.run(
        "check",
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Path write(String yaml) throws IOException {
    return Files.writeString(dir.resolve("ratelimit.yaml"), yaml);
  }

  @Test
  void validFileIsOk() throws IOException {
    Path file =
        write(
            """
            rules:
              - { id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }
              - { id: b, match: { path: /b }, key: ip, limit: 5, window: 1m }
            """);
    assertThat(run(file.toString())).isZero();
    assertThat(out().strip())
        .isEqualTo(
            "OK "
                + file
                + ": 2 rules, store memory (max_keys "
                + StoreSettings.DEFAULT.maxKeys()
                + ")");
    assertThat(err()).isEmpty();
  }

  @Test
  void eachLocalFirstRuleGetsItsBoundInItsOwnNumbers() throws IOException {
    Path file =
        write(
            """
            store: { type: redis, redis: { url: redis://127.0.0.1 }, consistency: local_first }
            fleet: { size: 4 }
            rules:
              - { id: w, match: { path: /w }, key: ip, limit: 100, window: 1s }
              - { id: t, match: { path: /t }, key: ip, limit: 100, window: 1s,
                  algorithm: token_bucket, sync: 200ms }
              - { id: e, match: { path: /e }, key: ip, limit: 100, window: 1s, consistency: exact }
            """);
    assertThat(run(file.toString())).isZero();
    assertThat(out())
        .contains(
            "rule w: local_first, sync 100 ms: never admits more than its 100 a window; leases"
                + " other JVMs hold may leave up to 48 of them unused (with 4 JVMs), given back"
                + " after 100 ms idle")
        .contains(
            "rule t: local_first, sync 200 ms: may admit up to 20 beyond the bucket (its refill"
                + " over one sync), fleet-wide")
        .doesNotContain("rule e:");
  }

  @Test
  void theMemoryStoreDecidesLocalFirstRulesExactly() throws IOException {
    Path file =
        write(
            """
            rules:
              - { id: w, match: { path: /w }, key: ip, limit: 5, window: 1m,
                  consistency: local_first }
            """);
    assertThat(run(file.toString())).isZero();
    assertThat(out()).contains("rule w: local_first, decided exactly by the memory store");
  }

  @Test
  void invalidFilePrintsEveryErrorWithItsLine() throws IOException {
    Path file =
        write(
            """
            store: { type: valkey }
            rules:
              - id: a
                match: { path: /a }
                key: ip
                limit: 0
                window: 5x
            """);
    assertThat(run(file.toString())).isEqualTo(1);
    assertThat(out()).isEmpty();
    assertThat(err().lines())
        .hasSize(4)
        .satisfiesExactly(
            line -> assertThat(line).startsWith(file + ":1:16: store.type: "),
            line -> assertThat(line).startsWith(file + ":6:12: rules[0] (a).limit: "),
            line -> assertThat(line).startsWith(file + ":7:13: rules[0] (a).window: "),
            line -> assertThat(line).isEqualTo("3 errors in " + file));
  }

  @Test
  void anAdminEndpointWithoutATokenOrTheOptOutFailsTheCheck() throws IOException {
    Path file = write("rules: []\nadmin:\n  allow: [10.0.0.0/8]\n");
    assertThat(run(file.toString())).isEqualTo(1);
    assertThat(err())
        .startsWith(file + ":3:3: admin.token: is required: set token: \"${SLUICE_ADMIN_TOKEN}\"");

    write("rules: []\nadmin:\n  allow: [10.0.0.0/8]\n  allow_without_token: true\n");
    assertThat(run(file.toString())).isZero();
    assertThat(err())
        .as("what a proxy or the container's forward headers make of it")
        .contains(
            "warning: "
                + file
                + ":4:24: admin.allow_without_token: true answers whoever comes from an address in"
                + " allow, without a token: behind a reverse proxy, or with the container's"
                + " forward headers on");
  }

  @Test
  void aMisspeltMethodFailsTheCheck() throws IOException {
    Path file =
        write(
            "rules:\n"
                + "  - { id: a, match: { path: /a, methods: [PSOT] }, key: ip, limit: 5, window: 1m"
                + " }\n");
    assertThat(run(file.toString())).isEqualTo(1);
    assertThat(err())
        .startsWith(
            file
                + ":2:43: rules[0] (a).match.methods[0]: \"PSOT\" is not an HTTP method, did you"
                + " mean POST?");
  }

  @Test
  void aFileThatFollowsRedisSaysItsRulesAreOnlyTheFallback() throws IOException {
    Path file =
        write(
            """
            rules_from: redis
            store: { type: redis, redis: { url: redis://127.0.0.1:6379 } }
            rules:
              - { id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }
            """);
    assertThat(run(file.toString())).isZero();
    assertThat(out())
        .contains(
            "rules_from: redis: these rules are only the fallback, in force until a version is"
                + " published in Redis, and edits to them are not applied while one is");
  }

  @Test
  void aWarningIsPrintedButPasses() throws IOException {
    Path file =
        write(
            """
            rules:
              - { id: a, match: { path: /a }, key: ip, limit: 5, window: 1m, tiers: { gold: 50 } }
            """);
    assertThat(run(file.toString())).isZero();
    assertThat(out()).startsWith("OK " + file + ": 1 rule, ");
    assertThat(err())
        .startsWith("warning: " + file + ":2:81: rules[0] (a).tiers.gold: no request is ever given")
        .endsWith("; this limit never applies\n");
  }

  @Test
  void oneErrorIsCountedInTheSingular() throws IOException {
    Path file = write("rules: 5\n");
    assertThat(run(file.toString())).isEqualTo(1);
    assertThat(err()).endsWith("1 error in " + file + "\n");
  }

  @Test
  void yamlSyntaxErrorIsAnInvalidFile() throws IOException {
    Path file = write("rules: [\n");
    assertThat(run(file.toString())).isEqualTo(1);
    assertThat(err()).startsWith(file + ":2:1: not valid YAML: ");
  }

  @Test
  void missingFileIsUsageError() {
    Path missing = dir.resolve("absent.yaml");
    assertThat(run(missing.toString())).isEqualTo(2);
    assertThat(err()).startsWith(missing + ": cannot read: ");
    assertThat(out()).isEmpty();
  }

  @Test
  void directoryIsUsageError() {
    assertThat(run(dir.toString())).isEqualTo(2);
    assertThat(err()).startsWith(dir + ": cannot read: ");
  }

  @Test
  void impossiblePathIsUsageError() {
    assertThat(run("bad\0name.yaml")).isEqualTo(2);
    assertThat(err()).startsWith("bad\0name.yaml: cannot read: ");
  }

  @Test
  void noArgumentOrTooManyIsUsageError() {
    assertThat(run()).isEqualTo(2);
    assertThat(err()).startsWith("usage: check <ratelimit.yaml>");
    assertThat(run("a.yaml", "b.yaml")).isEqualTo(2);
  }

  @Test
  void aDisabledFileIsValidAndSaysSo() throws IOException {
    Path file =
        write(
            """
            enabled: false
            rules:
              - { id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }
            """);
    assertThat(run(file.toString())).isZero();
    assertThat(out()).contains(": 1 rule, ").contains("disabled (enabled: false)");
  }

  @Test
  void aHugeFileIsInvalidAndNotReadWhole() throws IOException {
    Path file = dir.resolve("huge.yaml");
    try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
      huge.setLength(300L << 20); // sparse: 300 MB that take no disk and no time to make
    }
    assertThat(run(file.toString())).isEqualTo(1);
    assertThat(err())
        .startsWith(file + ": the file is larger than 1 MiB (1048576 bytes)")
        .endsWith("1 error in " + file + "\n");
  }

  @Test
  void withoutSnakeYamlItSaysWhatIsMissingInOneSentence() throws Exception {
    Path file = write("rules: []\n");
    try (URLClassLoader plainJar = withoutSnakeYaml()) {
      Method check =
          plainJar
              .loadClass(Check.class.getName())
              .getMethod("run", String.class, String[].class, PrintStream.class, PrintStream.class);
      Object code =
          check.invoke(
              null,
              "check",
              new String[] {file.toString()},
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(code).isEqualTo(2);
    }
    assertThat(out()).isEmpty();
    assertThat(err())
        .isEqualTo(
            "check needs SnakeYAML (org.yaml:snakeyaml) on the class path: add its jar, or check"
                + " with sluice-agent.jar or the javax jar, which bundle it\n");
  }

  /**
   * Sluice's classes as the plain jar has them, without SnakeYAML beside them: the parent of this
   * loader refuses both, so Sluice's come from the loader itself and SnakeYAML's from nowhere.
   */
  private static URLClassLoader withoutSnakeYaml() {
    URL classes = Check.class.getProtectionDomain().getCodeSource().getLocation();
    ClassLoader refusing =
        new ClassLoader(CheckTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.yaml.") || name.startsWith("dev.sluice.")) {
              throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
          }
        };
    return new URLClassLoader(new URL[] {classes}, refusing);
  }
}
