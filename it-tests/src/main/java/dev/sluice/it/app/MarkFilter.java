package dev.sluice.it.app;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * An application filter: marks the responses it sees ({@code X-App-Filter: ran}) and counts the
 * requests it ran for, which {@link CountServlet} reports; {@code /count} itself is not counted.
 */
public class MarkFilter implements Filter {
  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!"/count".equals(((HttpServletRequest) request).getServletPath())) {
      Calls.FILTERED.incrementAndGet();
    }
    ((HttpServletResponse) response).setHeader("X-App-Filter", "ran");
    chain.doFilter(request, response);
  }
}
