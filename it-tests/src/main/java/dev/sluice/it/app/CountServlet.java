package dev.sluice.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /count}: how many requests the app served so far (not counting this one), and in the
 * header {@code X-Filtered} how many its {@link MarkFilter} ran for.
 */
public class CountServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain");
    response.setHeader("X-Filtered", Integer.toString(Calls.FILTERED.get()));
    response.getWriter().write(Integer.toString(Calls.SERVED.get()));
  }
}
