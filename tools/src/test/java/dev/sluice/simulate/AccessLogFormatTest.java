package dev.sluice.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AccessLogFormatTest {
  private static final String COMBINED_LINE =
      "203.0.113.7 - alice [10/Oct/2000:13:55:36 -0700] \"POST /login?next=/a HTTP/1.1\" 200 2326"
          + " \"http://example.com/start\" \"Mozilla/4.08 [en] (Win98; I ;Nav)\"";

  private final Set<String> notLogged = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  private LoggedRequest parsed(String format, String line) {
    AccessLogFormat f = AccessLogFormat.of(format);
    LoggedRequest request = f.newRequest(notLogged);
    assertThat(f.parse(line, request)).as(line).isNull();
    return request;
  }

  private String problem(String format, String line) {
    AccessLogFormat f = AccessLogFormat.of(format);
    return f.parse(line, f.newRequest(notLogged));
  }

  @Test
  void combinedGivesThePeerTimeMethodPathUserAndItsTwoHeaders() {
    LoggedRequest r = parsed("combined", COMBINED_LINE);
    assertThat(r.remoteAddress()).isEqualTo("203.0.113.7");
    assertThat(r.epochSecond).isEqualTo(971_211_336L);
    assertThat(r.method()).isEqualTo("POST");
    assertThat(r.path()).isEqualTo("/login");
    assertThat(r.remoteUser()).isEqualTo("alice");
    assertThat(r.header("referer")).isEqualTo("http://example.com/start");
    assertThat(r.header("User-Agent")).isEqualTo("Mozilla/4.08 [en] (Win98; I ;Nav)");
    assertThat(r.headers("X-API-Key")).isEmpty();
    assertThat(notLogged).containsExactly("X-API-Key");
  }

  @Test
  void commonAndTomcatAreTheCommonLogFormat() {
    String line = "::1 - - [10/Oct/2000:13:55:36 -0700] \"GET /api/items/42 HTTP/1.1\" 404 -";
    for (String format : List.of("common", "tomcat", AccessLogFormat.COMMON)) {
      LoggedRequest r = parsed(format, line);
      assertThat(r.remoteAddress()).isEqualTo("::1");
      assertThat(r.remoteUser()).isNull();
      assertThat(r.path()).isEqualTo("/api/items/42");
      assertThat(notLogged).isEmpty();
    }
  }

  @Test
  void aValvePatternFeedsHeadersAndTakesEveryCommonField() {
    String pattern =
        "%a %h %l %u %t \"%r\" %m %U %q %s %b %B %D %T \"%{X-API-Key}i\" %{X-Forwarded-For}i";
    String line =
        "10.0.0.1 proxy.local - - [10/Oct/2000:13:55:36 -0700] \"GET /api/a%2Fb?x=1 HTTP/1.1\""
            + " GET /api/a%2Fb ?x=1 200 512 512 1234 1 \"key-\\\"7\\\"\" 198.51.100.9, 10.0.0.2";
    LoggedRequest r = parsed(pattern, line);
    assertThat(r.remoteAddress()).as("%a, the peer's address, over %h").isEqualTo("10.0.0.1");
    assertThat(r.path()).isEqualTo("/api/a%2Fb");
    assertThat(r.header("x-api-key")).isEqualTo("key-\"7\"");
    assertThat(r.headers("X-Forwarded-For")).containsExactly("198.51.100.9, 10.0.0.2");
  }

  @Test
  void methodAndPathMayComeFromTheirOwnFieldsWithoutARequestLine() {
    LoggedRequest r =
        parsed("%h %t %m %U%q", "10.0.0.1 [10/Oct/2000:13:55:36 -0700] DELETE /items/7?force");
    assertThat(r.method()).isEqualTo("DELETE");
    assertThat(r.path()).isEqualTo("/items/7");
    r = parsed("%h %t %m %U %q", "10.0.0.1 [10/Oct/2000:13:55:36 -0700] DELETE /items/7 ?force");
    assertThat(r.method()).isEqualTo("DELETE");
    assertThat(r.path()).isEqualTo("/items/7");
  }

  @Test
  void aDashIsAnAbsentValueAndEscapesAreUndone() {
    LoggedRequest r =
        parsed(
            "%h %t \"%r\" \"%{X-API-Key}i\" \"%{X-Plan}i\"",
            "10.0.0.1 [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" \"-\" \"a\\x41\\u0042\\\\\"");
    assertThat(r.header("X-API-Key")).isNull();
    assertThat(r.header("X-Plan")).isEqualTo("aAB\\");
  }

  @Test
  void anAbsoluteTargetIsCutToItsPathAndTextAfterThePatternIsIgnored() {
    LoggedRequest r =
        parsed(
            "common",
            "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET http://example.com/login?a HTTP/1.1\""
                + " 200 5 \"-\" \"curl\" extra=1");
    assertThat(r.path()).isEqualTo("/login");
  }

  @Test
  void linesThatDoNotFitSayWhy() {
    String start = "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] ";
    assertThat(problem("common", "garbage")).isEqualTo("no %h at column 1");
    assertThat(problem("common", "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700]GET"))
        .isEqualTo("expected ' \"' at column 42");
    assertThat(problem("common", start + "\"-\" 400 -")).isEqualTo("no request line");
    assertThat(problem("common", start + "\"\\x16\\x03\" 400 -"))
        .startsWith("the request line is not METHOD TARGET VERSION");
    assertThat(problem("common", start + "\"GET * HTTP/1.1\" 200 -"))
        .isEqualTo("the request target is no path: *");
    assertThat(problem("common", "10.0.0.1 - - [10/Oct/2000:13:55:36] \"GET / HTTP/1.1\" 200 -"))
        .startsWith("no time as [10/Oct/2000:13:55:36 -0700] at column 14");
    assertThat(problem("common", "10.0.0.1 - - 10/Oct/2000 \"GET / HTTP/1.1\" 200 -"))
        .isEqualTo("no %t at column 14");
    assertThat(problem("combined", start + "\"GET / HTTP/1.1\" 200 5 \"-\" \"unterminated"))
        .startsWith("no %{User-Agent}i at column ");
  }

  @Test
  void formatsThatCannotBeReadAreRefusedWithTheReason() {
    assertThatThrownBy(() -> AccessLogFormat.of("nginx"))
        .hasMessageStartingWith("unknown format \"nginx\": use combined, common, tomcat or");
    assertThatThrownBy(() -> AccessLogFormat.of("%h \"%r\"")).hasMessageContaining("no %t");
    assertThatThrownBy(() -> AccessLogFormat.of("%t \"%r\"")).hasMessageContaining("no %h or %a");
    assertThatThrownBy(() -> AccessLogFormat.of("%h %t %U")).hasMessageContaining("%r, or %m");
    assertThatThrownBy(() -> AccessLogFormat.of("%h%l %t \"%r\""))
        .hasMessageStartingWith("%l follows another field");
    assertThatThrownBy(() -> AccessLogFormat.of("%h %{yyyy}t \"%r\""))
        .hasMessageStartingWith("%{yyyy}t: only %t's own time");
    assertThatThrownBy(() -> AccessLogFormat.of("%h %t \"%r\" %i"))
        .hasMessageStartingWith("%i names no header");
    assertThatThrownBy(() -> AccessLogFormat.of("%h %t \"%r\" %{X-API-Key"))
        .hasMessage("\"%{\" at column 12 has no \"}\"");
    assertThatThrownBy(() -> AccessLogFormat.of("%h %t \"%r\" 100%"))
        .hasMessage("\"%\" at column 15 is not followed by a field letter");
  }

  @Test
  void apachesFinalStatusAndAPercentSignAreRead() {
    LoggedRequest r =
        parsed(
            "%h %t \"%r\" %>s 100%%",
            "10.0.0.1 [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.0\" 200 100%");
    assertThat(r.path()).isEqualTo("/");
  }
}
