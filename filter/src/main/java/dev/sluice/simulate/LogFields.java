package dev.sluice.simulate;

/** The values of one log line's fields, as the request carried them. */
final class LogFields {
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
   * Sets the method and path of {@code request} from a request line {@code GET /a?b HTTP/1.1}, or
   * says why it is none. The path keeps its percent-encoding and drops the query, as {@code
   * RequestView.path()} wants; an absolute URI ({@code GET http://host/a}) is cut to its path, as a
   * container routes it.
   */
  static String requestLine(String line, LoggedRequest request) {
    if (line == null) {
      return "no request line";
    }
    int space = line.indexOf(' ');
    if (space <= 0) {
      return "the request line is not METHOD TARGET VERSION";
    }
    int targetEnd = line.indexOf(' ', space + 1);
    String target = line.substring(space + 1, targetEnd < 0 ? line.length() : targetEnd);
    String path = path(target);
    if (path == null) {
      return "the request target is no path: " + target;
    }
    request.method = line.substring(0, space);
    request.path = path;
    return null;
  }

  /** The path of a request target, without its query, or null if it has none. */
  static String path(String target) {
    String path = target;
    int scheme = path.indexOf("://");
    if (scheme > 0 && path.charAt(0) != '/') {
      int slash = path.indexOf('/', scheme + 3);
      path = slash < 0 ? "/" : path.substring(slash);
    }
    int query = path.indexOf('?');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    return path.startsWith("/") ? path : null;
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
