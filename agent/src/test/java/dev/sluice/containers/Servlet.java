package dev.sluice.containers;

import javax.servlet.GenericServlet;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;

/** A servlet that is one through GenericServlet, read from the servlet API's class file. */
public final class Servlet extends GenericServlet {
  @Override
  public void service(ServletRequest request, ServletResponse response) {
    response.setContentType("served");
  }
}
