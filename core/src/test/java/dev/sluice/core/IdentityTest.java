package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IdentityTest {
  /** What an escaped value may hold. */
  private static final String ESCAPED = "[A-Za-z0-9._~@%-]*";

  /** What a hashed value looks like: '#' and 43 characters of base64url, no padding. */
  private static final String HASHED = "#[A-Za-z0-9_-]{43}";

  private static String escape(String value) {
    StringBuilder sb = new StringBuilder();
    Identity.append(sb, value);
    return sb.toString();
  }

  @Test
  void safeCharactersStayAsTheyAre() {
    assertThat(escape("Alice-1.2_3~x@example")).isEqualTo("Alice-1.2_3~x@example");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{       | %7B",
        "}       | %7D",
        ":       | %3A",
        "*       | %2A",
        "?       | %3F",
        "[       | %5B",
        "'a b'   | a%20b",
        "%       | %25",
        "&       | %26",
        "=       | %3D",
        "#       | %23",
        "/       | %2F",
        "+       | %2B",
        "é       | %E9",
        "€       | %u20AC",
        "%41     | %2541",
        "%u0041  | %25u0041"
      })
  void otherCharactersAreEscaped(String value, String escaped) {
    assertThat(escape(value)).isEqualTo(escaped);
  }

  @Test
  void controlCharactersAndSurrogatesAreEscaped() {
    assertThat(escape("a\nb\r\0")).isEqualTo("a%0Ab%0D%00");
    assertThat(escape("\uD83D\uDE00")).isEqualTo("%uD83D%uDE00");
    assertThat(escape("\uFFFF")).isEqualTo("%uFFFF");
  }

  @Test
  void valuesThatLookLikeEscapesNeverMeetTheirDecodedForm() {
    assertThat(escape("%41")).isNotEqualTo(escape("A"));
    assertThat(escape("%7B")).isNotEqualTo(escape("{"));
    assertThat(escape("%uD83D")).isNotEqualTo(escape("\uD83D"));
  }

  @Test
  void valuesUpToTheLimitAreEscapedBeyondItHashed() {
    String atLimit = "a".repeat(Identity.MAX_ESCAPED);
    assertThat(escape(atLimit)).isEqualTo(atLimit);
    assertThat(escape(atLimit + "a")).matches(HASHED);
    // 22 colons escape to 66 characters: over the limit though the value is short.
    assertThat(escape(":".repeat(22))).matches(HASHED);
    assertThat(escape(":".repeat(21))).isEqualTo("%3A".repeat(21));
  }

  @Test
  void hashingIsDeterministicAndTellsLongValuesApart() {
    String value = "x".repeat(10_000);
    assertThat(escape(value)).isEqualTo(escape(value));
    assertThat(escape(value)).isNotEqualTo(escape(value + "y"));
    assertThat(escape(value + "{")).isNotEqualTo(escape(value + "%7B"));
  }

  @Test
  void hashIsTheBase64urlSha256OfTheEscapedValue() throws Exception {
    String value = "é".repeat(30);
    byte[] digest =
        MessageDigest.getInstance("SHA-256")
            .digest("%E9".repeat(30).getBytes(StandardCharsets.US_ASCII));
    assertThat(escape(value))
        .isEqualTo("#" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest));
  }

  @Test
  void appendsAfterWhatTheKeyHoldsAndHashesOnlyTheValue() {
    StringBuilder key = new StringBuilder("user=");
    Identity.append(key, "{x}");
    assertThat(key).hasToString("user=%7Bx%7D");

    StringBuilder longKey = new StringBuilder("user=");
    Identity.append(longKey, "y".repeat(100));
    assertThat(longKey.toString()).startsWith("user=#").hasSize("user=".length() + 44);
  }

  @Test
  void randomStringsEscapeInjectivelyToSafeCharactersOnly() {
    String alphabet = "%uU09AFaf{}:*& =\n\0é€#-_.~@\\\"'";
    Random random = new Random(42);
    Map<String, String> seen = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      StringBuilder value = new StringBuilder();
      int length = random.nextInt(i % 10 == 0 ? 80 : 12);
      for (int k = 0; k < length; k++) {
        value.append(
            random.nextInt(8) == 0
                ? (char) random.nextInt(0x10000)
                : alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String input = value.toString();
      String escaped = escape(input);
      assertThat(escaped).as("escape of %s", input).matches(ESCAPED + "|" + HASHED);
      String earlier = seen.putIfAbsent(escaped, input);
      assertThat(earlier == null || earlier.equals(input))
          .as("%s and %s both escape to %s", earlier, input, escaped)
          .isTrue();
    }
    assertThat(seen.size()).isGreaterThan(15_000);
  }

  @Test
  void isSafeOnlyForTheUnreservedCharacters() {
    assertThat(Identity.isSafe('a')).isTrue();
    assertThat(Identity.isSafe('~')).isTrue();
    assertThat(Identity.isSafe('%')).isFalse();
    assertThat(Identity.isSafe('#')).isFalse();
    assertThat(Identity.isSafe('=')).isFalse();
    assertThat(Identity.isSafe('&')).isFalse();
    assertThat(Identity.isSafe('\u00E9')).isFalse();
  }
}
