package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Rules;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRulesTest {
  private static final String RULE =
      "rules:\n  - { id: a, match: { path: /a }, key: ip, limit: %s, window: 1m }\n";

  @TempDir Path dir;

  private Rules read(String content) throws Exception {
    Path file = Files.writeString(dir.resolve("ratelimit.yaml"), content);
    return FileRules.read(ConfigSource.of(file.toString(), null));
  }

  @Test
  void theRulesTheFileSaysNow() throws Exception {
    assertThat(read(String.format(RULE, 5)).rules())
        .singleElement()
        .satisfies(rule -> assertThat(rule.id()).isEqualTo("a"));
    assertThat(read("enabled: false\n" + String.format(RULE, 5))).isSameAs(Rules.NONE);
  }

  @Test
  void noneFromAnInvalidOrMissingFile() throws Exception {
    assertThat(read(String.format(RULE, 0))).isNull();
    assertThat(FileRules.read(ConfigSource.of(dir.resolve("absent.yaml").toString(), null)))
        .isNull();
  }
}
