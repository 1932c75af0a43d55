package dev.sluice.it.agent;

import java.io.IOException;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee8.nested.HandlerWrapper;
import org.eclipse.jetty.ee8.nested.Request;

/**
 * {@link CommitEarlyHandler} for Jetty ee8, inside the context: ee8 runs its servlet layer on a
 * response object of its own, which does not know that a core handler in front committed the
 * exchange, so the early commit must happen in ee8's own handler chain to be seen.
 */
final class CommitEarlyEe8Handler extends HandlerWrapper {
  @Override
  public void handle(
      String target, Request base, HttpServletRequest request, HttpServletResponse response)
      throws IOException, ServletException {
    if (request.getHeader(CommitEarlyValve.HEADER) != null) {
      response.getWriter().write("early;");
      response.flushBuffer();
    }
    super.handle(target, base, request, response);
  }
}
