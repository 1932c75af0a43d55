package dev.sluice.simulate;

import dev.sluice.core.RequestView;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One log line as the limiter sees a request. One instance is filled anew for every line (the
 * limiter keeps nothing of a request), so a replay allocates only the field values it needs.
 *
 * <p>A header the log does not carry reads as absent, exactly as a request without it; the names
 * the rules asked for in vain are remembered, so the report can say which identities the log could
 * not give.
 */
final class LoggedRequest implements RequestView {
  /** Lower-case names of the headers the format logs, index for index with {@link #values}. */
  private final String[] names;

  private final String[] values;
  private final boolean logsUser;
  private final Set<String> notLogged = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

  String method;
  String path;
  String remoteAddress;
  String remoteUser;

  /** The line's time, seconds since the epoch. */
  long epochSecond;

  LoggedRequest(List<String> headerNames, boolean logsUser) {
    this.names = new String[headerNames.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = headerNames.get(i);
    }
    this.values = new String[names.length];
    this.logsUser = logsUser;
  }

  /** Sets header {@code i} of the format; null when the line logged it as {@code -}. */
  void header(int i, String value) {
    values[i] = value;
  }

  /** Forgets the last line, so a field the next line lacks cannot leak from it. */
  void clear() {
    method = path = remoteAddress = remoteUser = null;
    for (int i = 0; i < values.length; i++) {
      values[i] = null;
    }
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
    for (int i = 0; i < names.length; i++) {
      if (names[i].equalsIgnoreCase(name)) {
        return values[i];
      }
    }
    notLogged.add(name);
    return null;
  }

  /**
   * The logged value as the one entry: a log joins repeated header lines with commas (Tomcat does),
   * which the forwarding chain reads as the same chain.
   */
  @Override
  public List<String> headers(String name) {
    String value = header(name);
    return value == null ? Collections.<String>emptyList() : Collections.singletonList(value);
  }

  @Override
  public String remoteUser() {
    if (!logsUser) {
      notLogged.add("remote user (%u)");
    }
    return remoteUser;
  }

  /** What the rules asked of requests that the log does not carry, e.g. {@code X-API-Key}. */
  Set<String> notLogged() {
    return notLogged;
  }
}
