package dev.sluice.it.app;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The application's own login, as many apps have one: HTTP Basic against users it keeps itself, the
 * user then told by {@code getRemoteUser()} of a request wrapper, as Spring Security does. Wrong
 * credentials get a 401; a request without any goes on anonymous.
 */
public class LoginFilter implements Filter {
  private static final Map<String, String> PASSWORDS =
      Map.of("alice", "alice-password", "bob", "bob-password");

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String authorization = ((HttpServletRequest) request).getHeader("Authorization");
    if (authorization == null || !authorization.startsWith("Basic ")) {
      chain.doFilter(request, response);
      return;
    }
    String[] credentials =
        new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8)
            .split(":", 2);
    if (credentials.length != 2 || !credentials[1].equals(PASSWORDS.get(credentials[0]))) {
      ((HttpServletResponse) response).sendError(401);
      return;
    }
    chain.doFilter(
        new HttpServletRequestWrapper((HttpServletRequest) request) {
          @Override
          public String getRemoteUser() {
            return credentials[0];
          }
        },
        response);
  }
}
