package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.FILE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.AdminSettings;
import dev.sluice.admin.WriteCredentials;
import dev.sluice.core.Cidr;
import dev.sluice.core.ClientIp;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminReaderTest {
  private static final String TOKEN = "tok-abcdefghijklmnop";
  private static final ClientIp NO_PROXY = new ClientIp(List.of());
  private static final String REDIS =
      "rules_from: redis\nstore: { type: redis, redis: { url: redis://127.0.0.1:6390 } }\n";

  private static AdminSettings read(String admin, Map<String, String> environment)
      throws InvalidConfigException {
    return ConfigParser.parse(FILE, "rules: []\n" + admin, environment).admin();
  }

  private static List<String> errors(String admin, Map<String, String> environment) {
    try {
      read(admin, environment);
    } catch (InvalidConfigException e) {
      return e.errors().stream().map(ConfigError::toString).toList();
    }
    throw new AssertionError("expected errors for " + admin);
  }

  @Test
  void withoutTheSectionThereIsNoEndpoint() throws Exception {
    assertThat(read("", Collections.emptyMap())).isNull();
  }

  @Test
  void aSectionWithTheTokenAloneServesThisHostAtTheDefaultPath() throws Exception {
    assertThat(read("admin: { token: \"${T}\" }\n", Map.of("T", TOKEN)))
        .isEqualTo(new AdminSettings("/_sluice", AdminSettings.LOOPBACK, TOKEN, NO_PROXY));
  }

  @Test
  void anEndpointWithoutATokenMustSaySo() throws Exception {
    for (String admin : new String[] {"admin: {}\n", "admin:\n  allow: [10.0.0.0/8]\n"}) {
      assertThat(errors(admin, Collections.emptyMap()))
          .as(admin)
          .singleElement()
          .asString()
          .matches(FILE + ":[23]:[0-9]+: .*")
          .contains(
              "admin.token: is required: set token: \"${SLUICE_ADMIN_TOKEN}\" and send it as"
                  + " Authorization: Bearer <token>, or write allow_without_token: true");
    }
    assertThat(errors("admin: { allow_without_token: false }\n", Collections.emptyMap()))
        .singleElement()
        .asString()
        .contains("admin.token: is required");
    assertThat(read("admin: { allow_without_token: true }\n", Collections.emptyMap()))
        .isEqualTo(new AdminSettings("/_sluice", AdminSettings.LOOPBACK, null, NO_PROXY));
  }

  @Test
  void aTokenAndTheOptOutContradictEachOther() {
    assertThat(
            errors("admin: { token: \"${T}\", allow_without_token: true }\n", Map.of("T", TOKEN)))
        .singleElement()
        .asString()
        .startsWith(FILE + ":2:")
        .contains("admin.allow_without_token: true contradicts the token given; remove one");
  }

  @Test
  void theTokenComesFromTheEnvironment() throws Exception {
    AdminSettings settings =
        read(
            "admin: { path: /ops/limits, allow: [10.0.0.0/8, \"::1\"], token: \"${T}\" }\n",
            Map.of("T", TOKEN));
    assertThat(settings.toString()).isEqualTo("/ops/limits for [10.0.0.0/8, ::1] with a token");
    assertThat(settings)
        .isEqualTo(
            new AdminSettings(
                "/ops/limits",
                List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("::1")),
                TOKEN,
                NO_PROXY));
  }

  @Test
  void anUnsetVariableTurnsTheEndpointOffWithAWarningAndLeavesTheRulesInForce() throws Exception {
    Config config =
        ConfigParser.parse(
            FILE,
            "rules: [{ id: a, match: { path: /a }, key: ip, limit: 1, window: 1m }]\n"
                + "admin: { token: \"${NOPE}\" }\n",
            Collections.emptyMap());
    assertThat(config.admin()).as("off, never open").isNull();
    assertThat(config.rules().rules()).hasSize(1);
    assertThat(config.warnings())
        .singleElement()
        .asString()
        .startsWith(FILE + ":2:")
        .contains(
            "admin.token: names the environment variable NOPE, which is not set: the admin"
                + " endpoint is off until it is")
        .endsWith("; the rules are in force");
  }

  @Test
  void anUnquotedVariableInBracesIsExplained() {
    assertThat(errors("admin: { token: ${T} }\n", Map.of("T", TOKEN)))
        .singleElement()
        .asString()
        .contains(
            "quote a value that starts with $ inside { }, e.g. token: \"${SLUICE_ADMIN_TOKEN}\"");
  }

  @Test
  void aShortTokenIsRefusedWithoutRepeatingIt() {
    List<String> errors = errors("admin: { token: \"${T}\" }\n", Map.of("T", "short-secret"));
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).contains("admin.token: must be at least 16 characters");
    assertThat(errors.get(0)).doesNotContain("short-secret");
    assertThat(errors("admin: { token: \"${T}\" }\n", Map.of("T", " " + TOKEN))).hasSize(1);
  }

  @Test
  void badPathsAddressesAndFieldsAreNamed() {
    Map<String, String> none = Collections.emptyMap();
    for (String path : new String[] {"_sluice", "/_sluice/", "/a//b", "/a/./b", "/a b", "/%5f"}) {
      assertThat(errors("admin: { path: \"" + path + "\", allow_without_token: true }\n", none))
          .as(path)
          .singleElement()
          .asString()
          .contains("admin.path: must be a plain path");
    }
    assertThat(errors("admin: { allow: [10.0.0.0/33], allow_without_token: true }\n", none))
        .singleElement()
        .asString()
        .contains("admin.allow[0]");
    assertThat(errors("admin: { tokn: x }\n", none))
        .hasSize(2)
        .anySatisfy(e -> assertThat(e).contains("admin.tokn: unknown field, did you mean token?"))
        .anySatisfy(e -> assertThat(e).contains("admin.token: is required"));
  }

  private static final String WRITE = "write-abcdefghijklmnop";

  @Test
  void oneWriteTokenIsACredentialNamedWriteToken() throws Exception {
    AdminSettings settings =
        read("admin: { token: \"${T}\", write_token: \"${W}\" }\n", Map.of("T", TOKEN, "W", WRITE));
    assertThat(settings)
        .isEqualTo(
            new AdminSettings(
                "/_sluice",
                AdminSettings.LOOPBACK,
                TOKEN,
                new WriteCredentials(Map.of("write_token", WRITE)),
                NO_PROXY));
    assertThat(settings.toString()).endsWith("with a token, rules written by [write_token]");
  }

  @Test
  void namedWriteTokensTellWhoWrote() throws Exception {
    AdminSettings settings =
        read(
            "admin:\n  token: \"${T}\"\n  write_token: { deploy: \"${D}\", alice: \"${A}\" }\n",
            Map.of("T", TOKEN, "D", WRITE, "A", "alice-abcdefghijklmnop"));
    assertThat(settings.toString()).endsWith("rules written by [deploy, alice]");
  }

  @Test
  void anUnsetWriteVariableTurnsThatCredentialOffAndLeavesReadsOn() throws Exception {
    Config config =
        ConfigParser.parse(
            FILE,
            "rules: []\nadmin: { token: \"${T}\", write_token: { deploy: \"${NOPE}\" } }\n"
                + REDIS,
            Map.of("T", TOKEN));
    assertThat(config.admin())
        .isEqualTo(new AdminSettings("/_sluice", AdminSettings.LOOPBACK, TOKEN, NO_PROXY));
    assertThat(config.warnings())
        .singleElement()
        .asString()
        .startsWith(FILE + ":2:")
        .contains(
            "admin.write_token.deploy: names the environment variable NOPE, which is not set:"
                + " writes to the rules are off with it until it is");
  }

  @Test
  void aWriteTokenIsNeverTheReadTokenNorAnotherWritersNorShort() {
    Map<String, String> env = Map.of("T", TOKEN, "W", WRITE, "S", "short-secret");
    assertThat(errors("admin: { token: \"${T}\", write_token: \"${T}\" }\n", env))
        .singleElement()
        .asString()
        .contains("admin.write_token: must not be the read token (admin.token)");
    assertThat(
            errors("admin: { token: \"${T}\", write_token: { a: \"${W}\", b: \"${W}\" } }\n", env))
        .singleElement()
        .asString()
        .contains("admin.write_token.b: is the token of a too; every credential needs its own");
    assertThat(errors("admin: { token: \"${T}\", write_token: \"${S}\" }\n", env))
        .singleElement()
        .asString()
        .contains("admin.write_token: must be at least 16 characters")
        .doesNotContain("short-secret");
    assertThat(errors("admin: { token: \"${T}\", write_token: { \"a b\": \"${W}\" } }\n", env))
        .singleElement()
        .asString()
        .contains("admin.write_token: names must be 1 to 64 of A-Z a-z 0-9 _ . -, got \"a b\"");
  }

  /**
   * Issue 28: a write token on a file without rules_from: redis made every write a 409, while the
   * log said "rules written by [write_token]".
   */
  @Test
  void aWriteTokenWithoutRulesFromRedisIsWarnedAbout() throws Exception {
    Map<String, String> env = Map.of("T", TOKEN, "W", "wtok-abcdefghijklmnop");
    String admin = "admin: { token: \"${T}\", write_token: \"${W}\" }\n";
    Config local = ConfigParser.parse(FILE, "rules: []\n" + admin, env);
    assertThat(local.warnings())
        .singleElement()
        .asString()
        .startsWith(FILE + ":2:")
        .contains("admin.write_token: writes need rules_from: redis: the rules come from this file")
        .contains("every write is refused (409)");
    assertThat(ConfigParser.parse(FILE, "rules: []\n" + admin + REDIS, env).warnings()).isEmpty();
  }

  /** Issue 28: check now warns about tokens written in the file itself. */
  @Test
  void aTokenWrittenInTheFileIsWarnedAbout() throws Exception {
    Config config =
        ConfigParser.parse(
            FILE,
            "rules: []\nadmin: { token: " + TOKEN + ", write_token: wtok-abcdefghijklmnop }\n"
                + REDIS,
            Map.of());
    assertThat(config.warnings())
        .extracting(ConfigError::toString)
        .hasSize(2)
        .allSatisfy(w -> assertThat(w).contains("is written in the file itself"))
        .anySatisfy(w -> assertThat(w).contains("admin.token: "))
        .anySatisfy(w -> assertThat(w).contains("admin.write_token: "));
    assertThat(config.warnings().toString()).doesNotContain(TOKEN);
  }
}
