package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.admin.Reply;
import dev.sluice.admin.RulesWrite;
import dev.sluice.store.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules API over rules from a local file: read with their version, never written. */
class LiveRulebookTest {
  private static final String FILE =
      "rules: [{ id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }]\n";

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  @Test
  void fileRulesAreReadWithTheirRulesVersionAndAWriteIsRefusedSayingHowToChangeThem()
      throws Exception {
    Path file = Files.writeString(dir.resolve("ratelimit.yaml"), FILE);
    try (LiveLimiter live = LiveLimiter.manual(ConfigSource.of(file.toString(), null), clock);
        LogCapture log = LogCapture.of("dev.sluice.config")) {
      LiveRulebook rulebook = new LiveRulebook(live);
      Reply read = rulebook.read();
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.body()).isEqualTo(FILE);
      String version = RulesVersion.of(FILE.getBytes(StandardCharsets.UTF_8));
      assertThat(read.etag()).isEqualTo("\"" + version + "\"");

      Reply write =
          rulebook.write(RulesEditTest.write(RulesWrite.Kind.REPLACE, null, "rules: []\n"));
      assertThat(write.status()).isEqualTo(409);
      assertThat(write.etag()).isEqualTo(read.etag());
      assertThat(write.detail())
          .startsWith("the rules come from the local file " + file)
          .contains("never rewrites: edit that file", "rules_from: redis");
      assertThat(Files.readString(file)).isEqualTo(FILE);
      assertThat(log.messages())
          .contains(
              "Sluice: deploy (from 10.0.0.1) replaced the whole document through the admin"
                  + " endpoint: refused, 409: "
                  + write.detail());
    }
  }

  @Test
  void onlyAnEtagOfAPublishedVersionNamesANumber() {
    assertThat(LiveRulebook.numberOf("\"v12\"")).isEqualTo(12);
    assertThat(LiveRulebook.numberOf("\"v0\"")).isZero();
    for (String other :
        new String[] {"v12", "W/\"v12\"", "\"12\"", "\"v\"", "\"v-1\"", "\"8e41d07b5a13\""}) {
      assertThat(LiveRulebook.numberOf(other)).as(other).isEqualTo(-1);
    }
  }

  /**
   * Issue 28: the read token read the write token and the Redis password, the local file verbatim.
   */
  @Test
  void aReaderGetsNoneOfTheSectionsThatHoldTheJvmsCredentials() throws Exception {
    String admin =
        "admin:\n  token: tok-abcdefghijklmnop\n  write_token: wtok-abcdefghijklmnop\n"
            + "store: { type: memory, max_keys: 100 }\n";
    Path file = Files.writeString(dir.resolve("ratelimit.yaml"), admin + FILE);
    try (LiveLimiter live = LiveLimiter.manual(ConfigSource.of(file.toString(), null), clock)) {
      Reply read = new LiveRulebook(live).read();
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.body()).isEqualTo(FILE);
      assertThat(read.etag())
          .as("still the file's version")
          .isEqualTo("\"" + RulesVersion.of(Files.readAllBytes(file)) + "\"");
    }
  }
}
