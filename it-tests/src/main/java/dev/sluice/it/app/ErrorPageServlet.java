package dev.sluice.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code /error-page}: the web.xml error page for 500; it lies under a limited path. */
public class ErrorPageServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Calls.SERVED.incrementAndGet();
    response.setContentType("text/plain");
    response.getWriter().write("error-page");
  }
}
