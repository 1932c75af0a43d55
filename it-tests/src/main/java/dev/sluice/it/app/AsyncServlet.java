package dev.sluice.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** {@code /async}: starts async processing and re-dispatches (ASYNC) to {@code /api/hello}. */
public class AsyncServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) {
    request.startAsync().dispatch("/api/hello");
  }
}
