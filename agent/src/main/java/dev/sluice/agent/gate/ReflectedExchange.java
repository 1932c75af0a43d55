package dev.sluice.agent.gate;

import dev.sluice.http.Exchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * An {@link Exchange} over servlet objects the agent reaches through {@link ServletApi}: what the
 * Filter's exchange does with direct calls, this does with method handles, so the Filter and the
 * agent read requests and write 429s alike.
 */
final class ReflectedExchange implements Exchange {
  private final ServletApi api;
  private final Object request;
  private final Object response;

  ReflectedExchange(ServletApi api, Object request, Object response) {
    this.api = api;
    this.request = request;
    this.response = response;
  }

  @Override
  public String method() {
    return string(api.getMethod);
  }

  @Override
  public String path() {
    return string(api.getRequestUri);
  }

  @Override
  public String remoteAddress() {
    return string(api.getRemoteAddr);
  }

  @Override
  public String queryString() {
    return string(api.getQueryString);
  }

  @Override
  public String remoteUser() {
    return string(api.getRemoteUser);
  }

  /**
   * The container's mark only: the agent decides before the application's filters, so no wrapper of
   * theirs is in front of it yet (and the headers such a filter takes away are still there).
   */
  @Override
  public boolean forwarded() {
    try {
      return (Object) api.getAttribute.invokeExact(request, TOMCAT_FORWARDED_ATTRIBUTE) != null;
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  @Override
  public String header(String name) {
    try {
      return (String) api.getHeader.invokeExact(request, name);
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  @Override
  public List<String> headers(String name) {
    Enumeration<?> values;
    try {
      values = (Enumeration<?>) api.getHeaders.invokeExact(request, name);
    } catch (Throwable t) {
      throw failure(t);
    }
    if (values == null || !values.hasMoreElements()) {
      return Collections.emptyList();
    }
    List<String> list = new ArrayList<String>(2);
    while (values.hasMoreElements()) {
      list.add((String) values.nextElement());
    }
    return list;
  }

  @Override
  public InputStream body() throws IOException {
    try {
      return (InputStream) (Object) api.getInputStream.invokeExact(request);
    } catch (IOException e) {
      throw e;
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  @Override
  public Object attribute(String name) {
    try {
      return (Object) api.getAttribute.invokeExact(request, name);
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  @Override
  public void setAttribute(String name, Object value) {
    try {
      api.setAttribute.invokeExact(request, name, value);
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  @Override
  public void setHeader(String name, String value) {
    try {
      api.setHeader.invokeExact(response, name, value);
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  @Override
  public boolean clearForResponse() {
    try {
      if ((boolean) api.isCommitted.invokeExact(response)) {
        return false;
      }
      api.reset.invokeExact(response);
      return true;
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  /**
   * Writes the rejection. When the writer cannot be had (something before the servlet layer took
   * the output stream) the response is reset again before the failure goes up: the request is let
   * through, and the application must not run on a response already set to 429 with Sluice's
   * headers.
   */
  @Override
  public void respond(int status, String contentType, String body) throws IOException {
    PrintWriter writer;
    try {
      api.setStatus.invokeExact(response, status);
      api.setContentType.invokeExact(response, contentType);
      api.setCharacterEncoding.invokeExact(response, "UTF-8");
      api.setContentLength.invokeExact(response, body.getBytes(StandardCharsets.UTF_8).length);
      writer = (PrintWriter) api.getWriter.invokeExact(response);
    } catch (Throwable t) {
      undo();
      if (t instanceof IOException) {
        throw (IOException) t;
      }
      throw failure(t);
    }
    writer.write(body);
    writer.flush();
  }

  /** Resets the response if it is not committed; a reset that fails leaves it as it is. */
  private void undo() {
    try {
      if (!(boolean) api.isCommitted.invokeExact(response)) {
        api.reset.invokeExact(response);
      }
    } catch (Throwable ignored) {
      // The failure being reported is the one that matters.
    }
  }

  private String string(MethodHandle getter) {
    try {
      return (String) getter.invokeExact(request);
    } catch (Throwable t) {
      throw failure(t);
    }
  }

  /** A servlet call that threw: unchecked, so the gate lets the request through and logs it. */
  private static RuntimeException failure(Throwable t) {
    if (t instanceof RuntimeException) {
      return (RuntimeException) t;
    }
    if (t instanceof Error) {
      throw (Error) t;
    }
    return new IllegalStateException(t);
  }
}
