package dev.sluice.admin;

import dev.sluice.http.Exchange;
import dev.sluice.support.Bounded;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * {@code <admin>/login}: a browser, which cannot send the token as a header, types it into a form
 * once and gets a {@link LoginCookie} that opens the endpoint's reads for half an hour. Only a
 * caller the endpoint allows (its address, its {@code Host}) ever sees the form; everyone else gets
 * the application's answer, as for every other path of the endpoint.
 *
 * <p>The form is protected as the token is: compared in constant time, at most {@link
 * FailedLogins#MAX} wrong tokens a minute, and a post is taken only from the form's own page (its
 * {@code Origin} names the host the request was sent to, and no browser says it came from another
 * site), so no other site can post into it. The cookie never grants a write: writes still need a
 * write token in their own {@code Authorization} header.
 */
final class Login {
  static final String RESOURCE = "login";
  private static final Logger LOG = Logger.getLogger("dev.sluice.admin");
  private static final int MAX_BODY = 4096;

  private final HtmlPage form = HtmlPage.login();
  private final LoginCookie cookie = new LoginCookie();
  private final FailedLogins failures = new FailedLogins();

  /** True when one of the request's cookies is a login this JVM issued, for the token in force. */
  boolean admits(Exchange exchange, AdminSettings in, long nowMillis) {
    byte[] token = in.tokenDigest();
    return token != null && cookie.admits(exchange.headers("Cookie"), token, nowMillis);
  }

  /** Answers a request for the form, or the form sent back, from a caller the endpoint allows. */
  void answer(Exchange exchange, AdminSettings in, long nowMillis) throws IOException {
    String method = exchange.method();
    if (in.tokenDigest() == null) {
      redirectToPage(exchange, in); // no token to type: the address alone lets this caller in
    } else if ("GET".equals(method) || "HEAD".equals(method)) {
      show(exchange, 200, "");
    } else if (!"POST".equals(method)) {
      exchange.setHeader("Allow", "GET, HEAD, POST");
      AdminEndpoint.error(exchange, 405, "only GET, HEAD and POST are answered here");
    } else if (!sentFromItsOwnPage(exchange)) {
      show(exchange, 403, "Send the token from this page itself.");
    } else {
      takeToken(exchange, in, nowMillis);
    }
  }

  private void takeToken(Exchange exchange, AdminSettings in, long nowMillis) throws IOException {
    long locked = failures.lockedFor(nowMillis);
    if (locked > 0) {
      long seconds = (locked + 999) / 1000;
      exchange.setHeader("Retry-After", Long.toString(seconds));
      show(exchange, 429, "Too many wrong tokens: try again in " + seconds + " s.");
      return;
    }
    byte[] body = Bounded.read(exchange.body(), MAX_BODY);
    if (body == null) {
      show(exchange, 413, "The form sent more than a token.");
      return;
    }
    String token = new Query(new String(body, StandardCharsets.UTF_8)).get("token", null);
    if (in.refusesToken(token)) {
      long total = failures.failed(nowMillis);
      LOG.warning(
          "Sluice: a wrong token was typed into the admin login form from "
              + Caller.address(exchange, in.clientIp())
              + " ("
              + total
              + " since start; after "
              + FailedLogins.MAX
              + " in a minute the form takes no token for the rest of it)");
      show(exchange, 403, "That is not the token.");
      return;
    }
    boolean secure = exchange.header("Origin").trim().startsWith("https://");
    exchange.setHeader("Set-Cookie", cookie.issue(in.tokenDigest(), nowMillis, in.path(), secure));
    redirectToPage(exchange, in);
  }

  private void show(Exchange exchange, int status, String message) throws IOException {
    exchange.setHeader("Content-Security-Policy", form.contentSecurityPolicy());
    // Under the endpoint's no-referrer the browser posts the form with Origin: null, which no
    // check can tell from another site's; same-origin sends the real one, and still no Referer
    // to any other site.
    exchange.setHeader("Referrer-Policy", "same-origin");
    // The messages are this class's own texts, never anything the request sent.
    exchange.respond(
        status, "text/html;charset=utf-8", form.html().replace("<!--message-->", message));
  }

  private static void redirectToPage(Exchange exchange, AdminSettings in) throws IOException {
    exchange.setHeader("Location", in.path() + "/");
    exchange.respond(303, "text/plain;charset=utf-8", "");
  }

  /**
   * True when the post came from a page of the host it was sent to: its one {@code Origin} names
   * that {@code Host}, and {@code Sec-Fetch-Site}, where the browser sends it, says same-origin. A
   * page of another site (or a sandboxed one, whose origin is {@code null}) never passes.
   */
  static boolean sentFromItsOwnPage(Exchange exchange) {
    String site = exchange.header("Sec-Fetch-Site");
    if (site != null && !"same-origin".equalsIgnoreCase(site.trim())) {
      return false;
    }
    List<String> origins = exchange.headers("Origin");
    List<String> hosts = exchange.headers("Host");
    if (origins.size() != 1 || hosts.size() != 1) {
      return false;
    }
    String origin = origins.get(0).trim().toLowerCase(Locale.ROOT);
    int scheme = origin.indexOf("://");
    return (origin.startsWith("http://") || origin.startsWith("https://"))
        && origin.substring(scheme + 3).equals(hosts.get(0).trim().toLowerCase(Locale.ROOT));
  }
}
