package dev.sluice.containers;

import java.io.IOException;
import javax.servlet.FilterChain;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;

/**
 * A container's filter chain: a loop at the top (a stack map frame at its first instruction),
 * several returns, a handler of its own, a throw.
 */
public final class Chain implements FilterChain {
  @Override
  public void doFilter(ServletRequest request, ServletResponse response) {
    do {
      response.setBufferSize(1);
    } while (response.isCommitted());
    Object mode = request.getAttribute("mode");
    if ("boom".equals(mode)) {
      throw new IllegalStateException("boom");
    }
    if ("early".equals(mode)) {
      response.setContentType("early");
      return;
    }
    try {
      response.flushBuffer();
    } catch (IOException e) {
      response.setContentType("caught");
      return;
    }
    response.setContentType("done");
  }
}
