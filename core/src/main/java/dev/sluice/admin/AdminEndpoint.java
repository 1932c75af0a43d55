package dev.sluice.admin;

import dev.sluice.core.Limiter;
import dev.sluice.http.Admin;
import dev.sluice.http.Exchange;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.PrometheusText;
import dev.sluice.metrics.RuleStats;
import dev.sluice.store.Clock;
import dev.sluice.support.JsonWriter;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * The operators' endpoint: {@code <path>/} the status page, {@code /status} its JSON, {@code
 * /metrics} the Prometheus text, {@code /explain} what the rules would do to a request, {@code
 * /rules} the rules in force, which a write credential may change ({@link RulesResource}), {@code
 * /login} a form where a browser types the token once for a cookie ({@link Login}). Off
 * until the config has an {@code admin} section, and it follows that section through reloads.
 *
 * <p>It answers only a request that reaches one of these paths spelled exactly so, from a {@link
 * Caller} it allows (found as the file's {@code client_ip} says, and more strictly than the rules
 * find clients) and with the token unless the file lets the endpoint do without one. Every other
 * request, whatever it lacks, goes on to the application as any unknown path would, counted by the
 * rules like one: nothing tells a stranger that the endpoint exists.
 */
public final class AdminEndpoint implements Admin {
  static final String JSON = "application/json";

  private final Limiter limiter;
  private final Metrics metrics;
  private final Clock clock;
  private final Rulebook rulebook;
  private final History history = new History();
  private volatile AdminSettings settings;
  private volatile HtmlPage page;
  private volatile Login login;

  /**
   * @param rulebook the rules {@code /rules} reads and writes
   */
  public AdminEndpoint(Limiter limiter, Metrics metrics, Clock clock, Rulebook rulebook) {
    this.limiter = limiter;
    this.metrics = metrics;
    this.clock = clock;
    this.rulebook = rulebook;
  }

  /** From now on answers as {@code next} says; null turns the endpoint off. */
  public void configure(AdminSettings next) {
    if (next != null && page == null) {
      page = HtmlPage.status();
      login = new Login();
    }
    settings = next;
  }

  /**
   * Whether the endpoint in force answers by the caller's address alone ({@code
   * allow_without_token: true}): an integration that knows a proxy or the container forwards
   * requests warns about it.
   */
  public boolean opensWithoutToken() {
    AdminSettings in = settings;
    return in != null && in.withoutToken();
  }

  /** Takes the history's next step or point when one is due: call it about every second. */
  public void sample() {
    if (settings != null) {
      history.sample(millis(), metrics::rules);
    }
  }

  @Override
  public boolean answered(Exchange exchange) throws IOException {
    AdminSettings in = settings;
    if (in == null) {
      return false;
    }
    String resource = resourceOf(in.path(), exchange.path());
    if (resource == null || !Caller.isAllowed(exchange, in.clientIp(), in.allow())) {
      return false;
    }
    // A write credential grants reads too; the read token, and the login cookie it buys, never
    // grant a write. The login form itself is for every allowed caller: it is how one without
    // the token in a header gets in.
    String token = bearerToken(exchange.headers("Authorization"));
    String writer = in.writer(token);
    boolean write = RulesResource.isWrite(resource, exchange.method());
    boolean toLogin = Login.RESOURCE.equals(resource);
    boolean granted = toLogin || (write ? writer != null : mayRead(exchange, in, token, writer));
    if (!granted || !exchange.clearForResponse()) {
      return false;
    }
    exchange.setHeader("Cache-Control", "no-store");
    exchange.setHeader("X-Content-Type-Options", "nosniff");
    exchange.setHeader("Referrer-Policy", "no-referrer");
    String method = exchange.method();
    if (toLogin) {
      login.answer(exchange, in, millis());
    } else if (RulesResource.isRules(resource)) {
      exchange.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
      String from = Caller.address(exchange, in.clientIp());
      RulesResource.answer(rulebook, resource, write ? writer : null, from, exchange);
    } else if (!"GET".equals(method) && !"HEAD".equals(method)) {
      exchange.setHeader("Allow", "GET, HEAD");
      error(exchange, 405, "only GET and HEAD are answered here");
    } else {
      answer(resource, exchange);
    }
    return true;
  }

  /** With the read token, a write credential, or the cookie the login form gave for the token. */
  private boolean mayRead(Exchange exchange, AdminSettings in, String token, String writer) {
    return !in.refusesToken(token) || writer != null || login.admits(exchange, in, millis());
  }

  private void answer(String resource, Exchange exchange) throws IOException {
    if (resource.isEmpty()) {
      HtmlPage html = page;
      exchange.setHeader("Content-Security-Policy", html.contentSecurityPolicy());
      exchange.respond(200, "text/html;charset=utf-8", html.html());
      return;
    }
    exchange.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
    if ("status".equals(resource)) {
      exchange.respond(200, JSON, statusJson());
    } else if ("metrics".equals(resource)) {
      exchange.respond(200, PrometheusText.CONTENT_TYPE, metrics.prometheusText());
    } else if ("explain".equals(resource)) {
      Explain.answer(limiter, metrics, exchange);
    } else {
      error(
          exchange, 404, "no such resource; try status, metrics, explain, login or the page at /");
    }
  }

  /**
   * What {@code <path>/status} answers, whether or not the endpoint is on: the Spring Boot
   * starter's Actuator endpoint serves it, behind the application's own security.
   */
  public String statusJson() {
    long now = millis();
    List<RuleStats> rules = metrics.rules();
    history.sample(now, () -> rules);
    return StatusJson.render(metrics, rules, history.points(), now);
  }

  static void error(Exchange exchange, int status, String message) throws IOException {
    exchange.respond(
        status,
        JSON,
        new JsonWriter().beginObject().name("error").value(message).endObject().toString());
  }

  /**
   * What follows {@code admin} in {@code path} ({@code ""} for the page), or null when the path is
   * not the endpoint's, spelled exactly: another spelling is the application's to answer.
   */
  static String resourceOf(String admin, String path) {
    if (path == null || !path.startsWith(admin)) {
      return null;
    }
    String rest = path.substring(admin.length());
    if (rest.isEmpty() || rest.equals("/")) {
      return "";
    }
    if (!rest.startsWith("/")) {
      return null;
    }
    int slash = rest.indexOf('/', 1);
    // One segment, or two under rules: rules/{id}.
    return slash < 0
            || (rest.substring(1, slash).equals(RulesResource.RULES)
                && slash + 1 < rest.length()
                && rest.indexOf('/', slash + 1) < 0)
        ? rest.substring(1)
        : null;
  }

  /** The token of the one {@code Authorization: Bearer} header, or null. */
  static String bearerToken(List<String> authorization) {
    if (authorization.size() != 1) {
      return null;
    }
    String value = authorization.get(0).trim();
    int space = value.indexOf(' ');
    if (space < 0 || !value.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")) {
      return null;
    }
    return value.substring(space + 1).trim();
  }

  private long millis() {
    return clock.micros() / 1000;
  }
}
