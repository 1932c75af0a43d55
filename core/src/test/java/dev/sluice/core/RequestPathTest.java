package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestPathTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/login",
        "/api/..;/login",
        "//login",
        "/login;x=1",
        "/login;jsessionid=ABC",
        "/%6cogin",
        "/%6Cogin",
        "/%2e%2e/login",
        "/api/%2e%2e/login",
        "/api/%2E%2E/login",
        "/login/",
        "/./login",
        "/%2e/login",
        "\\login",
        "/api\\..\\login",
        "/a/b/../../login",
        "/../../login",
        "/login/.",
        "/x/..;jsessionid=1/login;y=2/"
      })
  void everySpellingOfLoginIsOneSegment(String raw) {
    assertThat(RequestPath.segments(raw)).containsExactly("login");
  }

  @Test
  void caseIsKeptBecauseServletPathsAreCaseSensitive() {
    assertThat(RequestPath.segments("/LOGIN")).containsExactly("LOGIN");
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"/", "//", "/./", "/..", "/;x=1"})
  void rootHasNoSegments(String raw) {
    assertThat(RequestPath.segments(raw)).isEmpty();
  }

  @Test
  void plainPathsSplitOnSlashes() {
    assertThat(RequestPath.segments("/api/users/42")).containsExactly("api", "users", "42");
  }

  @Test
  void pathParametersAreCutFromEverySegment() {
    assertThat(RequestPath.segments("/a;x=1/b;y=2;z=3/c")).containsExactly("a", "b", "c");
  }

  @Test
  void invalidPercentEncodingStaysAsWritten() {
    assertThat(RequestPath.segments("/%zz")).containsExactly("%zz");
    assertThat(RequestPath.segments("/%")).containsExactly("%");
    assertThat(RequestPath.segments("/a%4")).containsExactly("a%4");
    assertThat(RequestPath.segments("/a%4g/b")).containsExactly("a%4g", "b");
  }

  @Test
  void onlyAsciiHexDigitsFormAnEscape() {
    // Character.digit would read the full-width digit six as 6 and decode this to "login".
    assertThat(RequestPath.segments("/%\uFF16cogin")).containsExactly("%\uFF16cogin");
  }

  @Test
  void decodesUtf8() {
    assertThat(RequestPath.segments("/caf%C3%A9")).containsExactly("café");
    assertThat(RequestPath.segments("/café/%E2%82%AC")).containsExactly("café", "€");
  }

  @Test
  void malformedUtf8BecomesTheReplacementCharacter() {
    assertThat(RequestPath.segments("/%C3/x")).containsExactly("\uFFFD", "x");
  }

  @Test
  void decodesOnceLikeTheContainer() {
    assertThat(RequestPath.segments("/%252e%252e/login")).containsExactly("%2e%2e", "login");
  }

  @Test
  void anEncodedSlashSeparatesSegmentsErringTowardsMatchingMore() {
    assertThat(RequestPath.segments("/api%2Flogin")).containsExactly("api", "login");
  }

  @Test
  void decodeKeepsTextWithoutEscapes() {
    assertThat(RequestPath.decode("/a b")).isEqualTo("/a b");
    assertThat(RequestPath.decode("%41%62")).isEqualTo("Ab");
  }
}
