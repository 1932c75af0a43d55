package dev.sluice.bench;

import dev.sluice.http.Exchange;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.List;

/**
 * A request and its response as a container hands them to {@link dev.sluice.http.Enforcer}: the
 * request's facts from a {@link FixedRequest}, the response headers kept in a small array as a
 * container's header table keeps them (set replaces a header of the same name), the request
 * attributes as two flags.
 */
final class BenchExchange implements Exchange {
  private final FixedRequest request;
  private final String[] headers = new String[8];
  private int headerCount;
  private boolean decided;
  private boolean decidedAfterLogin;
  private int status = 200;

  BenchExchange(FixedRequest request) {
    this.request = request;
  }

  /** What {@code X-RateLimit-Remaining} said, or null: read so the headers' work is not dead. */
  String header(int i) {
    return i < headerCount ? headers[2 * i + 1] : null;
  }

  int status() {
    return status;
  }

  @Override
  public Object attribute(String name) {
    return null; // the bench delays nothing: no wait to carry from one phase to the next
  }

  @Override
  public void setAttribute(String name, Object value) {}

  @Override
  public boolean markDecided(String attribute) {
    boolean first = attribute.equals(DECIDED_ATTRIBUTE) ? !decided : !decidedAfterLogin;
    if (attribute.equals(DECIDED_ATTRIBUTE)) {
      decided = true;
    } else {
      decidedAfterLogin = true;
    }
    return first;
  }

  @Override
  public boolean forwarded() {
    return false;
  }

  @Override
  public String queryString() {
    return null;
  }

  @Override
  public InputStream body() {
    return new ByteArrayInputStream(new byte[0]);
  }

  @Override
  public void setHeader(String name, String value) {
    for (int i = 0; i < headerCount; i++) {
      if (headers[2 * i].equalsIgnoreCase(name)) {
        headers[2 * i + 1] = value;
        return;
      }
    }
    headers[2 * headerCount] = name;
    headers[2 * headerCount + 1] = value;
    headerCount++;
  }

  @Override
  public boolean clearForResponse() {
    headerCount = 0;
    return true;
  }

  @Override
  public void respond(int status, String contentType, String body) {
    this.status = status;
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
    return null;
  }
}
