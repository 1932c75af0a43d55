package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the rules API shows and publishes of a document: all but each JVM's own sections. */
class LocalSectionsTest {
  private static String leftOut(String yaml) {
    byte[] content = yaml.getBytes(StandardCharsets.UTF_8);
    return new String(LocalSections.leftOut(content), StandardCharsets.UTF_8);
  }

  @Test
  void aDocumentWithoutLocalSectionsIsTheSameBytes() {
    byte[] content = "# ours\nrules: [] # none yet\n".getBytes(StandardCharsets.UTF_8);
    assertThat(LocalSections.leftOut(content)).isSameAs(content);
  }

  @Test
  void theLocalSectionsAndTheirCommentsAreCutAndTheRestKeptByteForByte() {
    String file =
        "# Sluice for the shop\n"
            + "\n"
            + "rules_from: redis\n"
            + "# where counts live\n"
            + "store:\n"
            + "  type: redis\n"
            + "  redis: { url: \"redis://:s3cret@redis:6379\" }\n"
            + "\n"
            + "# the rules, in flow style\n"
            + "rules:\n"
            + "  - { id: login, match: { path: /login }, key: ip, limit: 5, window: 1m }\n"
            + "client_ip: { trusted_proxies: [10.0.0.0/8] }\n"
            + "admin:\n"
            + "  token: tok-abcdefghijklmnop\n"
            + "  write_token: { deploy: wtok-abcdefghijklmnop }\n"
            + "# metrics\n"
            + "metrics: { top_clients: 3 }\n"
            + "fleet: { size: 3 }\n";
    assertThat(leftOut(file))
        .isEqualTo(
            "# Sluice for the shop\n"
                + "\n"
                + "# the rules, in flow style\n"
                + "rules:\n"
                + "  - { id: login, match: { path: /login }, key: ip, limit: 5, window: 1m }\n"
                + "# metrics\n"
                + "metrics: { top_clients: 3 }\n");
  }

  @Test
  void aFlowDocumentIsWrittenAnewWithoutThem() {
    String json =
        "{\"store\": {\"type\": \"redis\", \"redis\": {\"url\": \"redis://:pw@r:6379\"}},"
            + " \"rules\": []}";
    String left = leftOut(json);
    assertThat(left).doesNotContain("store", "pw").contains("rules");
    assertThat(ConfigTesting.parse(left).rules().rules()).isEmpty();
  }

  @Test
  void anAliasIntoACutSectionIsWrittenAnewFromTheNodeTree() {
    String file =
        "admin: { token: &t tok-abcdefghijklmnop }\n"
            + "rules: [{ id: *t, match: { path: /a }, key: ip, limit: 1, window: 1s }]\n";
    String left = leftOut(file);
    assertThat(left).doesNotContain("admin").contains("tok-abcdefghijklmnop");
    assertThat(ConfigTesting.parse(left).rules().rules().get(0).id())
        .isEqualTo("tok-abcdefghijklmnop");
  }
}
