package dev.sluice.servlet;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.config.StartRefusedException;
import dev.sluice.core.Phase;
import dev.sluice.http.Enforcer;
import dev.sluice.http.Exchange;
import dev.sluice.metrics.Metrics;
import dev.sluice.otel.SpanAttributes;
import dev.sluice.support.Failures;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Rate-limits a web application by ratelimit.yaml. Register it in web.xml on {@code /*}:
 *
 * <pre>{@code
 * <filter>
 *   <filter-name>sluice</filter-name>
 *   <filter-class>dev.sluice.servlet.RateLimitFilter</filter-class>
 *   <init-param>
 *     <param-name>config</param-name><param-value>/etc/app/ratelimit.yaml</param-value>
 *   </init-param>
 * </filter>
 * <filter-mapping><filter-name>sluice</filter-name><url-pattern>/*</url-pattern></filter-mapping>
 * }</pre>
 *
 * <p>The {@code config} init-param is optional; see {@link ConfigSource} for where the file is
 * looked for otherwise. So is {@code on_invalid_config}: {@code refuse_start} fails {@link #init}
 * (and so the application's start) when there is no valid file, where the default serves unlimited
 * until one appears (see {@link OnInvalidConfig}). A request is counted once, whatever dispatchers
 * the mapping names.
 *
 * <p>Rules keyed by the user need the user, which an application that logs users in itself (Spring
 * Security, a login filter) sets only in its own filters, after this one. A second mapping of this
 * class with the init-param {@code decide} set to {@code after_login}, placed after the
 * application's login filter, decides those rules there, with the first mapping's rules and
 * counters; the first mapping then leaves them to it. Without one, the first decides every rule.
 *
 * <p>{@link #withMetrics} hands an application the limiter's metrics, for its meter registry (with
 * sluice-micrometer: {@code RateLimitFilter.withMetrics(context, m -> new
 * SluiceMeters(m).bindTo(registry))}). Where the application has the OpenTelemetry API, each
 * decision goes onto the request's current span as attributes (see {@link SpanAttributes}).
 */
public class RateLimitFilter implements Filter {
  /** The init-param that makes a mapping decide the rules keyed by the user, after login. */
  public static final String DECIDE = "decide";

  public static final String AFTER_LOGIN = "after_login";

  /** Context attribute: the first mapping's enforcer, which the after-login mapping applies. */
  private static final String ENFORCER_ATTRIBUTE = "dev.sluice.enforcer";

  /** Context attribute: set when an after-login mapping decides the rules keyed by the user. */
  private static final String AFTER_LOGIN_ATTRIBUTE = "dev.sluice.after_login";

  /**
   * Request attribute: this application's Filter, not the agent, decided the request at entry, so
   * its after-login mapping decides the rules keyed by the user too. Whoever decides a request's
   * entry decides it after login: the agent, which sees a request first, at its servlet.
   */
  private static final String ENTRY_BY_FILTER_ATTRIBUTE = "dev.sluice.decided.by_filter";

  private final Failures failures = new Failures(Logger.getLogger("dev.sluice.servlet"));
  private final LiveLimiter given;
  private ServletContext context;
  private boolean afterLogin;
  private LiveLimiter live;
  private Enforcer enforcer;

  /** The Filter of web.xml: it finds, starts and closes its own limiter. */
  public RateLimitFilter() {
    this(null);
  }

  /**
   * A Filter that applies {@code limiter}, started and closed by its owner (the Spring Boot
   * starter's, whose meters, endpoint and health read it before the server starts); the init-params
   * {@code config} and {@code on_invalid_config} are then the owner's business.
   */
  public RateLimitFilter(LiveLimiter limiter) {
    this.given = limiter;
  }

  @Override
  public void init(FilterConfig config) throws ServletException {
    context = config.getServletContext();
    String decide = config.getInitParameter(DECIDE);
    if (AFTER_LOGIN.equals(decide)) {
      afterLogin = true;
      context.setAttribute(AFTER_LOGIN_ATTRIBUTE, Boolean.TRUE);
      return;
    }
    if (decide != null) {
      throw new ServletException(
          "Sluice: init-param " + DECIDE + "=" + decide + " is unknown: use " + AFTER_LOGIN);
    }
    live = given != null ? given : start(config);
    live.servesContext(config.getServletContext().getContextPath());
    enforcer = new Enforcer(live.limiter(), live.admin(), new SpanAttributes());
    context.setAttribute(ENFORCER_ATTRIBUTE, enforcer);
    MetricsHandoff.started(context, live.metrics());
  }

  /**
   * Hands {@code use} the metrics of the limiter of this application's Filter: at once if the
   * Filter has started, else when it starts. A ServletContextListener may ask, though it runs
   * before any filter starts.
   */
  public static void withMetrics(ServletContext context, Consumer<Metrics> use) {
    MetricsHandoff.whenStarted(context, use);
  }

  private static LiveLimiter start(FilterConfig config) throws ServletException {
    ClassLoader loader = config.getServletContext().getClassLoader();
    Map<String, String> environment = System.getenv();
    try {
      return LiveLimiter.start(
          ConfigSource.locate(config.getInitParameter("config"), environment, loader),
          OnInvalidConfig.locate(config.getInitParameter(OnInvalidConfig.NAME), environment),
          contextName(config.getServletContext().getContextPath()));
    } catch (StartRefusedException e) {
      // The container then refuses the whole application: the failed deploy that was asked for.
      throw new ServletException(e.getMessage(), e);
    }
  }

  /** The application's context path without its slash, as its MBeans are told apart by. */
  public static String contextName(String contextPath) {
    return contextPath == null || contextPath.isEmpty() ? "ROOT" : contextPath.substring(1);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest && response instanceof HttpServletResponse) {
      Enforcer in = enforcer();
      if (in != null
          && decidesHere(request)
          && !in.admit(
              new ServletExchange((HttpServletRequest) request, (HttpServletResponse) response),
              phase())) {
        return;
      }
    }
    chain.doFilter(request, response);
  }

  /** This mapping's enforcer, or after login the first mapping's; null when there is none. */
  private Enforcer enforcer() {
    if (!afterLogin) {
      return enforcer;
    }
    Enforcer first = (Enforcer) context.getAttribute(ENFORCER_ATTRIBUTE);
    if (first == null) {
      failures.warn(
          "alone",
          "Sluice: the filter with "
              + DECIDE
              + "="
              + AFTER_LOGIN
              + " found no other Sluice filter in this application to take the rules from;"
              + " it limits nothing");
    }
    return first;
  }

  /**
   * False after login for a request the agent decided at entry, which it decides after login too;
   * at entry, notes when this Filter is the first to decide the request.
   */
  private boolean decidesHere(ServletRequest request) {
    boolean undecided = request.getAttribute(Exchange.DECIDED_ATTRIBUTE) == null;
    if (afterLogin) {
      return undecided || request.getAttribute(ENTRY_BY_FILTER_ATTRIBUTE) != null;
    }
    if (undecided) {
      request.setAttribute(ENTRY_BY_FILTER_ATTRIBUTE, Boolean.TRUE);
    }
    return true;
  }

  /** The rules this mapping decides. The filters all start before the first request comes. */
  private Phase phase() {
    if (afterLogin) {
      return Phase.AFTER_LOGIN;
    }
    return context.getAttribute(AFTER_LOGIN_ATTRIBUTE) != null ? Phase.ENTRY : Phase.ALL;
  }

  @Override
  public void destroy() {
    if (live != null) {
      context.removeAttribute(ENFORCER_ATTRIBUTE);
      MetricsHandoff.stopped(context);
      if (given == null) {
        live.close();
      }
    }
  }
}
