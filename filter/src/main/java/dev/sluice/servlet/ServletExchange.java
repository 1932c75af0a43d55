package dev.sluice.servlet;

import dev.sluice.http.Exchange;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;

/** An {@link Exchange} over the servlet API; the javax artifact is this class relocated. */
final class ServletExchange implements Exchange {
  private final HttpServletRequest request;
  private final HttpServletResponse response;

  ServletExchange(HttpServletRequest request, HttpServletResponse response) {
    this.request = request;
    this.response = response;
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public String path() {
    return request.getRequestURI();
  }

  @Override
  public String remoteAddress() {
    return request.getRemoteAddr();
  }

  /**
   * The container's mark, or a wrapper in front of Sluice (Spring's {@code ForwardedHeaderFilter},
   * Tomcat's {@code RemoteIpFilter}) that answers another address than the request it wraps.
   */
  @Override
  public boolean forwarded() {
    if (request.getAttribute(TOMCAT_FORWARDED_ATTRIBUTE) != null) {
      return true;
    }
    ServletRequest inner = request;
    while (inner instanceof ServletRequestWrapper) {
      inner = ((ServletRequestWrapper) inner).getRequest();
    }
    return inner != request && !Objects.equals(inner.getRemoteAddr(), request.getRemoteAddr());
  }

  @Override
  public String header(String name) {
    return request.getHeader(name);
  }

  @Override
  public List<String> headers(String name) {
    Enumeration<String> values = request.getHeaders(name);
    return values == null ? Collections.<String>emptyList() : Collections.list(values);
  }

  @Override
  public String remoteUser() {
    return request.getRemoteUser();
  }

  @Override
  public String queryString() {
    return request.getQueryString();
  }

  @Override
  public InputStream body() throws IOException {
    return request.getInputStream();
  }

  @Override
  public Object attribute(String name) {
    return request.getAttribute(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    request.setAttribute(name, value);
  }

  @Override
  public void setHeader(String name, String value) {
    response.setHeader(name, value);
  }

  @Override
  public boolean clearForResponse() {
    if (response.isCommitted()) {
      return false;
    }
    response.reset();
    return true;
  }

  @Override
  public void respond(int status, String contentType, String body) throws IOException {
    response.setStatus(status);
    response.setContentType(contentType);
    response.setCharacterEncoding("UTF-8");
    response.setContentLength(body.getBytes(StandardCharsets.UTF_8).length);
    PrintWriter writer = response.getWriter();
    writer.write(body);
    writer.flush();
  }
}
