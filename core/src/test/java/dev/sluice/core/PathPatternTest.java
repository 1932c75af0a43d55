package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PathPatternTest {

  private static boolean matches(String pattern, String rawPath) {
    return PathPattern.compile(pattern).matches(RequestPath.segments(rawPath));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/login",
        "/api/..;/login",
        "//login",
        "/login;x=1",
        "/login;jsessionid=ABC",
        "/%6cogin",
        "/%2e%2e/login",
        "/api/%2e%2e/login",
        "/login/",
        "/./login",
        "\\login",
        "/a/b/../../login"
      })
  void everySpellingHitsLogin(String raw) {
    assertThat(matches("/login", raw)).isTrue();
  }

  @Test
  void matchingIsCaseSensitiveLikeServletMapping() {
    // Documented behaviour: /LOGIN is another resource to a servlet container, so /login does
    // not limit it. An application that serves both must list both.
    assertThat(matches("/login", "/LOGIN")).isFalse();
  }

  @Test
  void literalPatternsMatchWholePathsOnly() {
    assertThat(matches("/login", "/login/x")).isFalse();
    assertThat(matches("/login", "/loginx")).isFalse();
    assertThat(matches("/api/login", "/login")).isFalse();
  }

  @Test
  void singleStarMatchesExactlyOneSegment() {
    assertThat(matches("/api/*/items", "/api/42/items")).isTrue();
    assertThat(matches("/api/*/items", "/api/items")).isFalse();
    assertThat(matches("/api/*/items", "/api/1/2/items")).isFalse();
    assertThat(matches("/api/*", "/api")).isFalse();
  }

  @Test
  void doubleStarMatchesZeroOrMoreSegments() {
    assertThat(matches("/api/**", "/api")).isTrue();
    assertThat(matches("/api/**", "/api/")).isTrue();
    assertThat(matches("/api/**", "/api/a")).isTrue();
    assertThat(matches("/api/**", "/api/a/b/c")).isTrue();
    assertThat(matches("/api/**", "/apix")).isFalse();
    assertThat(matches("/api/**", "/")).isFalse();
  }

  @Test
  void doubleStarAloneMatchesEverythingIncludingTheRoot() {
    assertThat(matches("/**", "/")).isTrue();
    assertThat(matches("/**", "/a/b")).isTrue();
  }

  @Test
  void leadingDoubleStarFindsTheTail() {
    assertThat(matches("/**/login", "/login")).isTrue();
    assertThat(matches("/**/login", "/a/b/login")).isTrue();
    assertThat(matches("/**/login", "/a/login/b")).isFalse();
  }

  @Test
  void severalDoubleStarsBacktrack() {
    assertThat(matches("/a/**/b/**/c", "/a/b/c")).isTrue();
    assertThat(matches("/a/**/b/**/c", "/a/x/y/b/z/c")).isTrue();
    assertThat(matches("/a/**/b/**/c", "/a/b/b/c/c")).isTrue();
    assertThat(matches("/a/**/b/**/c", "/a/c/b")).isFalse();
    assertThat(matches("/a/**/b/**/c", "/a/b")).isFalse();
    assertThat(matches("/a/**/b/**/c", "/x/a/b/c")).isFalse();
  }

  @Test
  void starsMix() {
    assertThat(matches("/api/*/**", "/api/v1")).isTrue();
    assertThat(matches("/api/*/**", "/api/v1/a/b")).isTrue();
    assertThat(matches("/api/*/**", "/api")).isFalse();
    assertThat(matches("/**/*/edit", "/docs/7/edit")).isTrue();
    assertThat(matches("/**/*/edit", "/edit")).isFalse();
  }

  @Test
  void hostilePathWithThousandsOfSegmentsCompletesWithoutBlowingUp() {
    String[] segments = new String[5000];
    Arrays.fill(segments, "a");
    PathPattern pattern = PathPattern.compile("/**/a/**/a/**/a/**/a/**/b");
    assertThat(pattern.matches(segments)).isFalse();
    segments[segments.length - 1] = "b";
    assertThat(pattern.matches(segments)).isTrue();
    assertThat(PathPattern.compile("/**/a/**/a/**/c/**").matches(segments)).isFalse();
  }

  @Test
  void hostileRawPathIsNormalisedAndMatched() {
    String raw = "/a".repeat(5000) + "/..;x=1".repeat(4999);
    assertThat(RequestPath.segments(raw)).containsExactly("a");
    assertThat(matches("/**/a", raw)).isTrue();
  }

  @Test
  void patternsAreNormalisedLikePaths() {
    assertThat(matches("/caf%C3%A9", "/café")).isTrue();
    assertThat(PathPattern.compile("/a//b")).isEqualTo(PathPattern.compile("/a/b"));
    assertThat(PathPattern.compile("/a//b").hashCode())
        .isEqualTo(PathPattern.compile("/a/b").hashCode());
    assertThat(PathPattern.compile("/a/*")).isNotEqualTo(PathPattern.compile("/a/**"));
  }

  @Test
  void toStringIsThePatternAsWritten() {
    assertThat(PathPattern.compile("/api//**")).hasToString("/api//**");
  }

  @ParameterizedTest
  @ValueSource(strings = {"api", "", "api/**", "*", "**"})
  void patternMustStartWithSlash(String text) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> PathPattern.compile(text))
        .withMessageContaining("must start with '/'");
  }

  @Test
  void nullPatternIsRejected() {
    assertThatIllegalArgumentException().isThrownBy(() -> PathPattern.compile(null));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/a*b", "/a/**b", "/***", "/a/b*", "/*a"})
  void starsMustStandAlone(String text) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> PathPattern.compile(text))
        .withMessageContaining("must stand alone");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/a/../b", "/a/./b", "/..", "/a;x=1", "/a/;/b"})
  void dotSegmentsAndParametersAreRejected(String text) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> PathPattern.compile(text))
        .withMessageContaining("'.', '..' or ';'");
  }

  @Test
  void aPatternCanMatchUnderAContextPathOnlyIfItStartsWithIt() {
    assertThat(PathPattern.compile("/servlets/**").canMatchUnder("/examples")).isFalse();
    assertThat(PathPattern.compile("/examples/servlets/**").canMatchUnder("/examples")).isTrue();
    assertThat(PathPattern.compile("/*/login").canMatchUnder("/examples")).isTrue();
    assertThat(PathPattern.compile("/**").canMatchUnder("/a/b")).isTrue();
    assertThat(PathPattern.compile("/a/**").canMatchUnder("/a/b")).isTrue();
    assertThat(PathPattern.compile("/a").canMatchUnder("/a/b")).isFalse();
    assertThat(PathPattern.compile("/a/b").canMatchUnder("/a")).isTrue();
    assertThat(PathPattern.compile("/login").canMatchUnder("")).isTrue();
  }
}
