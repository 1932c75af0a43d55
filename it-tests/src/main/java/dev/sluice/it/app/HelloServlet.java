package dev.sluice.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The app's one real answer, also the target of every forward, include and async dispatch. */
public class HelloServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Calls.SERVED.incrementAndGet();
    response.setContentType("text/plain");
    response.getWriter().write("hello");
  }
}
