package dev.sluice.http;

import dev.sluice.core.TestRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Records what the enforcer writes. */
final class FakeExchange implements Exchange {
  private final TestRequest request;
  private boolean decided;
  boolean committed;
  final Map<String, String> headers = new LinkedHashMap<>();
  int status;
  String contentType;
  String body;

  FakeExchange(TestRequest request) {
    this.request = request;
  }

  @Override
  public boolean markDecided() {
    boolean first = !decided;
    decided = true;
    return first;
  }

  @Override
  public void setHeader(String name, String value) {
    headers.put(name, value);
  }

  @Override
  public boolean clearForRejection() {
    if (committed) {
      return false;
    }
    headers.clear();
    return true;
  }

  @Override
  public void reject(int status, String contentType, String body) {
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
