package dev.sluice.http;

import dev.sluice.core.TestRequest;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Records what Sluice writes. */
public final class FakeExchange implements Exchange {
  private final TestRequest request;
  private final String query;
  private final Map<String, Object> attributes = new HashMap<>();
  public boolean committed;

  /** Whether the container says the request came through a proxy (see Exchange#forwarded). */
  public boolean forwarded;

  public final Map<String, String> headers = new LinkedHashMap<>();
  public int status;
  public String contentType;
  public String body;

  /** What the request sends as its body. */
  public byte[] requestBody = new byte[0];

  public FakeExchange(TestRequest request) {
    this(request, null);
  }

  public FakeExchange(TestRequest request, String query) {
    this.request = request;
    this.query = query;
  }

  @Override
  public String queryString() {
    return query;
  }

  @Override
  public boolean forwarded() {
    return forwarded;
  }

  @Override
  public InputStream body() {
    return new ByteArrayInputStream(requestBody);
  }

  @Override
  public Object attribute(String name) {
    return attributes.get(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    if (value == null) {
      attributes.remove(name);
    } else {
      attributes.put(name, value);
    }
  }

  @Override
  public void setHeader(String name, String value) {
    headers.put(name, value);
  }

  @Override
  public boolean clearForResponse() {
    if (committed) {
      return false;
    }
    headers.clear();
    return true;
  }

  @Override
  public void respond(int status, String contentType, String body) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
  }

  @Override
  public String method() {
    return request.method();
  }

  @Override
  public String path() {
    return request.path();
  }

  @Override
  public String remoteAddress() {
    return request.remoteAddress();
  }

  @Override
  public String header(String name) {
    return request.header(name);
  }

  @Override
  public List<String> headers(String name) {
    return request.headers(name);
  }

  @Override
  public String remoteUser() {
    return request.remoteUser();
  }
}
