package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Cors;
import org.junit.jupiter.api.Test;

class CorsReaderTest {
  private static Cors cors(String section) {
    return parse("cors: " + section + "\nrules: []\n").rules().cors();
  }

  @Test
  void withoutTheSectionNoOriginGetsCorsHeaders() {
    Cors none = parse("rules: []\n").rules().cors();
    assertThat(none.allowOrigin("https://app.example.com")).isNull();
    assertThat(none.allowCredentials()).isFalse();
  }

  @Test
  void aListedOriginIsEchoedAsTheBrowserSentIt() {
    Cors cors = cors("{ allowed_origins: [https://App.example.com, 'http://localhost:3000'] }");
    assertThat(cors.allowOrigin("https://app.example.com")).isEqualTo("https://app.example.com");
    assertThat(cors.allowOrigin("http://localhost:3000")).isEqualTo("http://localhost:3000");
    assertThat(cors.allowOrigin("https://app.example.com.evil.example")).isNull();
    assertThat(cors.allowOrigin("http://app.example.com")).as("another scheme").isNull();
    assertThat(cors.allowOrigin(null)).isNull();
  }

  @Test
  void starAllowsAnyOriginWithoutNamingIt() {
    assertThat(cors("{ allowed_origins: '*' }").allowOrigin("https://x.example")).isEqualTo("*");
  }

  @Test
  void mistakesAreReportedWithTheirPlace() {
    assertThat(
            places(
                """
                cors:
                  allowed_origins: [https://ok.example, https://app.example.com/, "null", app]
                  count_preflight: true
                rules: []
                """))
        .containsExactly(
            "2 cors.allowed_origins[1]",
            "2 cors.allowed_origins[2]",
            "2 cors.allowed_origins[3]",
            "3 cors.count_preflight");
    assertThat(
            onlyError(
                    """
                    cors: { allowed_origins: "*", allow_credentials: true }
                    rules: []
                    """)
                .message())
        .isEqualTo("cannot be true with allowed_origins \"*\": list the origins");
  }
}
