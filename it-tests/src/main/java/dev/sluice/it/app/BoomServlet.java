package dev.sluice.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code /boom}: fails with 500, so the container makes an ERROR dispatch to the error page. */
public class BoomServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
  }
}
