package dev.sluice.bench;

import dev.sluice.core.RequestView;
import java.util.ArrayList;
import java.util.List;

/**
 * A request with fixed values, made once and replayed. Headers are kept as name/value pairs and
 * searched case-insensitively, as a servlet container's header list is, so the lookup costs what it
 * would in production rather than a pre-lower-cased hash map.
 */
final class FixedRequest implements RequestView {
  private final String method;
  private final String path;
  private final String remoteAddress;
  private final String[] headers;

  /** {@code headers} alternates names and values. */
  FixedRequest(String method, String path, String remoteAddress, String... headers) {
    this.method = method;
    this.path = path;
    this.remoteAddress = remoteAddress;
    this.headers = headers;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public String header(String name) {
    for (int i = 0; i < headers.length; i += 2) {
      if (headers[i].equalsIgnoreCase(name)) {
        return headers[i + 1];
      }
    }
    return null;
  }

  @Override
  public List<String> headers(String name) {
    List<String> values = new ArrayList<>(1);
    for (int i = 0; i < headers.length; i += 2) {
      if (headers[i].equalsIgnoreCase(name)) {
        values.add(headers[i + 1]);
      }
    }
    return values;
  }

  @Override
  public String remoteUser() {
    return null;
  }
}
