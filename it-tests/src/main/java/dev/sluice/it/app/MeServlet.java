package dev.sluice.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code GET /api/me}: greets the user {@link LoginFilter} logged in; 401 for nobody. */
public class MeServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (request.getRemoteUser() == null) {
      response.sendError(401);
      return;
    }
    Calls.SERVED.incrementAndGet();
    response.setContentType("text/plain");
    response.getWriter().write("hello " + request.getRemoteUser());
  }
}
