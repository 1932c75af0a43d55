package dev.sluice.simulate;

import dev.sluice.core.RequestView;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * One log line as the limiter sees a request. One instance is filled anew for every line (the
 * limiter keeps nothing of a request), so a replay allocates only the field values it needs.
 *
 * <p>A header the log does not carry reads as absent, exactly as a request without it; the names
 * the rules asked for in vain are remembered, so the report can say which identities the log could
 * not give.
 */
final class LoggedRequest implements RequestView {
  /** Names of the headers the format logs, index for index with {@link #starts}. */
  private final String[] names;

  /** Where each header's value is in {@link #line}, or -1 where the line has none. */
  private final int[] starts;

  private final int[] ends;
  private String line;
  private final boolean logsUser;
  private final Set<String> notLogged;

  String method;
  String path;
  String remoteAddress;
  String remoteUser;

  /** The line's time, seconds since the epoch. */
  long epochSecond;

  LoggedRequest(List<String> headerNames, boolean logsUser, Set<String> notLogged) {
    this.names = new String[headerNames.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = headerNames.get(i);
    }
    this.starts = new int[names.length];
    this.ends = new int[names.length];
    this.logsUser = logsUser;
    this.notLogged = notLogged;
  }

  /**
   * Says that header {@code i} of the format is at {@code [start, end)} of the line: its value is
   * made only if a rule asks for it (a combined log's user agent seldom is).
   */
  void header(int i, int start, int end) {
    starts[i] = start;
    ends[i] = end;
  }

  /** Forgets the last line for {@code next}, so a field it lacks cannot leak from the last. */
  void clear(String next) {
    line = next;
    method = path = remoteAddress = remoteUser = null;
    Arrays.fill(starts, -1);
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
        return starts[i] < 0 ? null : LogFields.value(line, starts[i], ends[i]);
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
}
