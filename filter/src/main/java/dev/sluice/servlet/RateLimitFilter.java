package dev.sluice.servlet;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.config.StartRefusedException;
import dev.sluice.http.Enforcer;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

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
 */
public class RateLimitFilter implements Filter {
  private LiveLimiter live;
  private Enforcer enforcer;

  @Override
  public void init(FilterConfig config) throws ServletException {
    ClassLoader loader = config.getServletContext().getClassLoader();
    Map<String, String> environment = System.getenv();
    try {
      live =
          LiveLimiter.start(
              ConfigSource.locate(config.getInitParameter("config"), environment, loader),
              OnInvalidConfig.locate(config.getInitParameter(OnInvalidConfig.NAME), environment),
              contextName(config.getServletContext().getContextPath()));
    } catch (StartRefusedException e) {
      // The container then refuses the whole application: the failed deploy that was asked for.
      throw new ServletException(e.getMessage(), e);
    }
    live.servesContext(config.getServletContext().getContextPath());
    enforcer = new Enforcer(live.limiter(), live.admin());
  }

  /** The application's context path without its slash, as its MBeans are told apart by. */
  static String contextName(String contextPath) {
    return contextPath == null || contextPath.isEmpty() ? "ROOT" : contextPath.substring(1);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!(request instanceof HttpServletRequest)
        || !(response instanceof HttpServletResponse)
        || enforcer.admit(
            new ServletExchange((HttpServletRequest) request, (HttpServletResponse) response))) {
      chain.doFilter(request, response);
    }
  }

  @Override
  public void destroy() {
    if (live != null) {
      live.close();
    }
  }
}
