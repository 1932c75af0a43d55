package dev.sluice.simulate;

/** The values of one log line's fields, as the request carried them. */
final class LogFields {
  private static final String[] METHODS = {
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"
  };

  private LogFields() {}

  /**
   * The value of {@code line[start, end)}: null for {@code -} (what a log writes for a missing
   * value), unescaped if the log escaped anything in it.
   */
  static String value(String line, int start, int end) {
    if (end - start == 1 && line.charAt(start) == '-') {
      return null;
    }
    String value = line.substring(start, end);
    return value.indexOf('\\') < 0 ? value : unescape(value);
  }

  /**
   * Sets the method and path of {@code request} from the request line {@code GET /a?b HTTP/1.1} in
   * {@code line[start, end)}, or says why it is none. The path keeps its percent-encoding and drops
   * the query, as {@code RequestView.path()} wants; an absolute URI ({@code GET http://host/a}) is
   * cut to its path, as a container routes it. Cut in place: a replay makes two strings of a
   * request line at most, and none for a usual method.
   */
  static String requestLine(String line, int start, int end, LoggedRequest request) {
    if (end - start == 1 && line.charAt(start) == '-') {
      return "no request line";
    }
    if (line.lastIndexOf('\\', end - 1) >= start) {
      String unescaped = unescape(line.substring(start, end));
      return split(unescaped, 0, unescaped.length(), request);
    }
    return split(line, start, end, request);
  }

  private static String split(String s, int start, int end, LoggedRequest request) {
    int space = s.indexOf(' ', start);
    if (space <= start || space >= end) {
      return "the request line is not METHOD TARGET VERSION";
    }
    int targetEnd = s.indexOf(' ', space + 1);
    targetEnd = targetEnd < 0 || targetEnd > end ? end : targetEnd;
    String path = path(s, space + 1, targetEnd);
    if (path == null) {
      return "the request target is no path: " + s.substring(space + 1, targetEnd);
    }
    request.method = method(s, start, space);
    request.path = path;
    return null;
  }

  /** The path of the request target {@code s[start, end)}, without its query; null if none. */
  static String path(String s, int start, int end) {
    int from = start;
    if (from < end && s.charAt(from) != '/') {
      int scheme = s.indexOf("://", from);
      if (scheme < 0 || scheme >= end) {
        return null;
      }
      int slash = s.indexOf('/', scheme + 3);
      if (slash < 0 || slash >= end) {
        return "/";
      }
      from = slash;
    }
    if (from >= end) {
      return null;
    }
    int query = s.indexOf('?', from);
    return s.substring(from, query < 0 || query > end ? end : query);
  }

  /** The usual methods as constants: no string made, and the rules compare them at once. */
  private static String method(String s, int start, int end) {
    for (String method : METHODS) {
      if (method.length() == end - start && s.startsWith(method, start)) {
        return method;
      }
    }
    return s.substring(start, end);
  }

  /**
   * Undoes the escapes logs write into quoted values: {@code \"} and {@code \\}, control characters
   * ({@code \n}, {@code \t}...), Apache's and nginx's {@code \xhh} bytes and Tomcat's characters as
   * a backslash, {@code u} and four hex digits. Bytes are taken as Latin-1: an identity only has to
   * be the same for the same client.
   */
  static String unescape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        out.append(c);
        continue;
      }
      char next = s.charAt(++i);
      int hexDigits = next == 'x' ? 2 : next == 'u' ? 4 : 0;
      if (hexDigits > 0 && i + hexDigits < s.length() && isHex(s, i + 1, hexDigits)) {
        out.append((char) Integer.parseInt(s.substring(i + 1, i + 1 + hexDigits), 16));
        i += hexDigits;
      } else {
        out.append(control(next));
      }
    }
    return out.toString();
  }

  private static char control(char escaped) {
    switch (escaped) {
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'v':
        return '\u000b';
      default:
        return escaped; // \" and \\, and anything else as written
    }
  }

  private static boolean isHex(String s, int at, int count) {
    for (int i = at; i < at + count; i++) {
      if (Character.digit(s.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
