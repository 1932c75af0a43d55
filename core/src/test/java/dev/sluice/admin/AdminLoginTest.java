package dev.sluice.admin;

import static dev.sluice.admin.AdminTesting.TOKEN;
import static dev.sluice.admin.AdminTesting.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Cidr;
import dev.sluice.core.TestRequest;
import dev.sluice.http.FakeExchange;
import dev.sluice.store.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The login form: a browser types the token once and gets a short-lived cookie that opens the
 * endpoint's reads, never its writes; no other site can post to it, no guessing past ten tries a
 * minute, and a caller the endpoint does not allow never sees it.
 */
class AdminLoginTest {
  private static final String ORIGIN = "http://localhost:8080";
  private final AdminTesting t = new AdminTesting("rules: []\n").allow(TOKEN, "127.0.0.1/32");

  private static FakeExchange post(String body, String origin) {
    TestRequest request = new TestRequest("POST", "/_sluice/login").from("127.0.0.1");
    request.header("Host", "localhost:8080");
    if (origin != null) {
      request.header("Origin", origin);
    }
    FakeExchange exchange = new FakeExchange(request);
    exchange.requestBody = body.getBytes(StandardCharsets.UTF_8);
    return exchange;
  }

  /** The cookie a right token gets, as the browser sends it back: name=value. */
  private String logIn() throws Exception {
    FakeExchange login = post("token=" + TOKEN, ORIGIN);
    assertThat(t.admin.answered(login)).isTrue();
    assertThat(login.status).isEqualTo(303);
    return login.headers.get("Set-Cookie").split(";")[0];
  }

  private FakeExchange withCookie(String method, String path, String cookie) {
    TestRequest request = new TestRequest(method, path).from("127.0.0.1");
    request.header("Host", "localhost:8080").header("Cookie", "theme=dark; " + cookie);
    return new FakeExchange(request);
  }

  @Test
  void anAllowedCallerWithoutTheTokenGetsTheFormAndNoOneElseDoes() throws Exception {
    FakeExchange form = new FakeExchange(request("/_sluice/login", "127.0.0.1"));
    assertThat(t.admin.answered(form)).isTrue();
    assertThat(form.status).isEqualTo(200);
    assertThat(form.body).contains("<form method=\"post\" action=\"login\">");
    assertThat(form.headers.get("Content-Security-Policy"))
        .contains("script-src 'none'", "form-action 'self'", "frame-ancestors 'none'");
    assertThat(form.headers)
        .as("no-referrer would make the browser post the form with Origin: null")
        .containsEntry("Referrer-Policy", "same-origin");
    assertThat(form.body).contains("<meta name=\"referrer\" content=\"same-origin\">");

    FakeExchange stranger = new FakeExchange(request("/_sluice/login", "10.0.0.1"));
    assertThat(t.admin.answered(stranger)).as("not in allow: the app's 404").isFalse();
    assertThat(stranger.headers).isEmpty();
    FakeExchange page = new FakeExchange(request("/_sluice/", "127.0.0.1"));
    assertThat(t.admin.answered(page)).as("the page itself still wants the token").isFalse();
  }

  @Test
  void theRightTokenBuysAShortLivedHttpOnlyStrictCookieThatIsNotTheToken() throws Exception {
    FakeExchange login = post("token=" + TOKEN, ORIGIN);
    assertThat(t.admin.answered(login)).isTrue();
    assertThat(login.status).isEqualTo(303);
    assertThat(login.headers).containsEntry("Location", "/_sluice/");
    String setCookie = login.headers.get("Set-Cookie");
    assertThat(setCookie)
        .startsWith("sluice-admin=")
        .contains("; Path=/_sluice;", "; Max-Age=1800;", "; HttpOnly", "; SameSite=Strict")
        .doesNotContain("Secure")
        .doesNotContain(TOKEN);

    FakeExchange overTls = post("token=" + TOKEN, "https://localhost:8080");
    assertThat(t.admin.answered(overTls)).isTrue();
    assertThat(overTls.headers.get("Set-Cookie")).endsWith("; Secure");
  }

  @Test
  void theCookieOpensTheReadsForHalfAnHourAndNeverAWrite() throws Exception {
    String cookie = logIn();
    for (String path : List.of("/_sluice/", "/_sluice/status", "/_sluice/metrics")) {
      FakeExchange read = withCookie("GET", path, cookie);
      assertThat(t.admin.answered(read)).as(path).isTrue();
      assertThat(read.status).as(path).isEqualTo(200);
    }
    assertThat(t.admin.answered(withCookie("PUT", "/_sluice/rules", cookie))).isFalse();

    t.clock.advance(29 * 60 * ManualClock.SECOND);
    assertThat(t.admin.answered(withCookie("GET", "/_sluice/status", cookie))).isTrue();
    t.clock.advance(60 * ManualClock.SECOND);
    assertThat(t.admin.answered(withCookie("GET", "/_sluice/status", cookie)))
        .as("30 minutes after the login")
        .isFalse();
  }

  @Test
  void aCookieMadeUpStretchedFromAnotherJvmOrForAnOldTokenIsRefused() throws Exception {
    String cookie = logIn();
    String value = cookie.substring(cookie.indexOf('=') + 1);
    long expiry = Long.parseLong(value.substring(0, value.indexOf('.')));
    String stretched =
        "sluice-admin=" + (expiry + 3_600_000) + value.substring(value.indexOf('.'));
    assertThat(t.admin.answered(withCookie("GET", "/_sluice/status", stretched))).isFalse();
    assertThat(t.admin.answered(withCookie("GET", "/_sluice/status", "sluice-admin=" + TOKEN)))
        .isFalse();

    AdminTesting other = new AdminTesting("rules: []\n").allow(TOKEN, "127.0.0.1/32");
    other.clock.advance(t.clock.micros() - other.clock.micros());
    assertThat(other.admin.answered(withCookie("GET", "/_sluice/status", cookie)))
        .as("another JVM's secret")
        .isFalse();

    t.allow("another-token-0123456789", "127.0.0.1/32");
    assertThat(t.admin.answered(withCookie("GET", "/_sluice/status", cookie)))
        .as("after a reload changed the token")
        .isFalse();
  }

  @Test
  void onlyThePageOfTheFormMayPostIt() throws Exception {
    for (String origin : new String[] {null, "null", "https://evil.example", "http://localhost"}) {
      FakeExchange login = post("token=" + TOKEN, origin);
      assertThat(t.admin.answered(login)).as("Origin %s", origin).isTrue();
      assertThat(login.status).as("Origin %s", origin).isEqualTo(403);
      assertThat(login.headers).as("Origin %s", origin).doesNotContainKey("Set-Cookie");
    }
    TestRequest request = new TestRequest("POST", "/_sluice/login").from("127.0.0.1");
    request.header("Host", "localhost:8080").header("Origin", ORIGIN);
    request.header("Sec-Fetch-Site", "same-site");
    FakeExchange crossSite = new FakeExchange(request);
    crossSite.requestBody = ("token=" + TOKEN).getBytes(StandardCharsets.UTF_8);
    assertThat(t.admin.answered(crossSite)).isTrue();
    assertThat(crossSite.status).isEqualTo(403);
  }

  @Test
  void tenWrongTokensAMinuteShutTheFormEvenToTheRightOne() throws Exception {
    for (int i = 0; i < 10; i++) {
      FakeExchange wrong = post("token=guess-" + i, ORIGIN);
      assertThat(t.admin.answered(wrong)).isTrue();
      assertThat(wrong.status).isEqualTo(403);
      assertThat(wrong.body).contains("That is not the token.");
      t.clock.advance(ManualClock.SECOND);
    }
    FakeExchange right = post("token=" + TOKEN, ORIGIN);
    assertThat(t.admin.answered(right)).isTrue();
    assertThat(right.status).isEqualTo(429);
    assertThat(right.headers).containsEntry("Retry-After", "50").doesNotContainKey("Set-Cookie");

    t.clock.advance(50 * ManualClock.SECOND);
    assertThat(logIn()).startsWith("sluice-admin=");
  }

  @Test
  void withoutATokenTheFormSendsTheBrowserToThePage() throws Exception {
    t.admin.configure(
        new AdminSettings(
            "/_sluice", List.of(Cidr.parse("127.0.0.1/32")), null, t.limiter.rules().clientIp()));
    FakeExchange form = new FakeExchange(request("/_sluice/login", "127.0.0.1"));
    assertThat(t.admin.answered(form)).isTrue();
    assertThat(form.status).isEqualTo(303);
    assertThat(form.headers).containsEntry("Location", "/_sluice/");
    assertThat(form.headers).doesNotContainKey("Set-Cookie");
  }
}
