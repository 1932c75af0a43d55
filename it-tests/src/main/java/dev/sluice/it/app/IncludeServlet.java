package dev.sluice.it.app;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code /include}: an INCLUDE dispatch of {@code /api/hello} inside its own response. */
public class IncludeServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    response.setContentType("text/plain");
    response.getWriter().write("included:");
    request.getRequestDispatcher("/api/hello").include(request, response);
  }
}
