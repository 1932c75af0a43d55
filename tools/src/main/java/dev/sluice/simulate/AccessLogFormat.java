package dev.sluice.simulate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * An access log's line layout, from a format name or a pattern of Tomcat's {@code AccessLogValve}
 * (Apache's {@code LogFormat} reads the same): the text between fields, and which fields feed the
 * request. A line is cut at each field's following text with {@code indexOf}, no regular
 * expression: a quoted field ends at the first unescaped quote followed by that text, and {@code
 * %t} at its closing bracket.
 */
final class AccessLogFormat {
  static final String COMMON = "%h %l %u %t \"%r\" %s %b";
  static final String COMBINED = COMMON + " \"%{Referer}i\" \"%{User-Agent}i\"";

  private final String name;
  private final FormatPart[] parts;
  private final List<String> headers;
  private final boolean hasRequestLine;
  private final boolean logsUser;
  private final boolean logsAddress;

  /** A cache of the last second parsed: {@link #parse} runs on one thread at a time. */
  private final LogTime time = new LogTime();

  private AccessLogFormat(String name, List<FormatPart> parts) {
    this.name = name;
    this.parts = parts.toArray(new FormatPart[0]);
    this.headers = new ArrayList<>();
    boolean requestLine = false;
    boolean user = false;
    boolean address = false;
    for (FormatPart part : parts) {
      address |= part.field == 'a';
      requestLine |= part.field == 'r';
      user |= part.field == 'u';
      if (part.header != null) {
        headers.add(part.header); // in the order of their headerIndex
      }
    }
    this.hasRequestLine = requestLine;
    this.logsUser = user;
    this.logsAddress = address;
  }

  /**
   * {@code combined} and {@code common} (Apache's, nginx's and the valve's aliases), {@code tomcat}
   * (the valve's default, {@code common}), or a pattern such as {@code %h %t "%r" %{X-API-Key}i}.
   *
   * @throws IllegalArgumentException naming what is wrong with it
   */
  static AccessLogFormat of(String spec) {
    switch (spec) {
      case "combined":
        return new AccessLogFormat(spec, FormatPart.compile(COMBINED));
      case "common":
      case "tomcat":
        return new AccessLogFormat(spec, FormatPart.compile(COMMON));
      default:
        if (spec.indexOf('%') < 0) {
          throw new IllegalArgumentException(
              "unknown format \""
                  + spec
                  + "\": use combined, common, tomcat or an AccessLogValve pattern such as '"
                  + COMMON
                  + "'");
        }
        List<FormatPart> parts = FormatPart.compile(spec);
        FormatPart.requireFields(parts);
        return new AccessLogFormat(spec, parts);
    }
  }

  /** The named format {@code name}, called "name (detected)": the user gave no --format. */
  static AccessLogFormat detected(String name) {
    AccessLogFormat named = of(name);
    return new AccessLogFormat(name + " (detected)", Arrays.asList(named.parts));
  }

  String name() {
    return name;
  }

  /**
   * A request to fill with {@link #parse}, knowing which headers this format logs; it notes in
   * {@code notLogged} what is asked of it that the log does not carry.
   */
  LoggedRequest newRequest(Set<String> notLogged) {
    return new LoggedRequest(headers, logsUser, notLogged);
  }

  /** Fills {@code into} from {@code line}: null when it fits, else why not. */
  String parse(String line, LoggedRequest into) {
    into.clear(line);
    String host = null;
    String address = null;
    long seconds = LogTime.INVALID;
    int pos = 0;
    for (int i = 0; i < parts.length; i++) {
      FormatPart part = parts[i];
      if (part.literal != null) {
        if (!line.startsWith(part.literal, pos)) {
          return "expected '" + part.literal + "' at column " + (pos + 1);
        }
        pos += part.literal.length();
        continue;
      }
      int end = part.end(line, pos, i + 1 < parts.length ? parts[i + 1].literal : null);
      if (end < 0) {
        return "no " + part + " at column " + (pos + 1);
      }
      switch (part.field) {
        case 't':
          seconds = seconds == LogTime.INVALID ? time.parse(line, pos + 1, end - 1) : seconds;
          if (seconds == LogTime.INVALID) {
            return "no time as [10/Oct/2000:13:55:36 -0700] at column " + (pos + 1);
          }
          break;
        case 'h':
          host = logsAddress ? null : LogFields.value(line, pos, end);
          break;
        case 'a':
          address = LogFields.value(line, pos, end);
          break;
        case 'u':
          into.remoteUser = LogFields.value(line, pos, end);
          break;
        case 'm':
          into.method = hasRequestLine ? into.method : LogFields.value(line, pos, end);
          break;
        case 'U':
          into.path = hasRequestLine ? into.path : LogFields.path(line, pos, end);
          break;
        case 'r':
          String problem = LogFields.requestLine(line, pos, end, into);
          if (problem != null) {
            return problem;
          }
          break;
        case 'i':
          into.header(part.headerIndex, pos, end);
          break;
        default:
          break; // a field no rule reads: status, sizes, times taken...
      }
      pos = end;
    }
    if (into.method == null || into.path == null) {
      return "no method or no path";
    }
    // %a is the peer's IP address; %h may be a host name, if the server looked it up.
    into.remoteAddress = address != null ? address : host;
    into.epochSecond = seconds;
    return null;
  }

  @Override
  public String toString() {
    return name;
  }
}
