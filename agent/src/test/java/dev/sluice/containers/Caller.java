package dev.sluice.containers;

import javax.servlet.FilterChain;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;

/** Calls a filter chain, implements none. */
public final class Caller {
  public void call(FilterChain chain, ServletRequest request, ServletResponse response)
      throws Exception {
    chain.doFilter(request, response);
  }
}
