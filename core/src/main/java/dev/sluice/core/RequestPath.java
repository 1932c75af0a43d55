package dev.sluice.core;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a raw request URI into the segments a servlet container would route by, so no spelling of a
 * path slips past a rule: path parameters ({@code ;jsessionid=..}) are cut, percent-encoding is
 * decoded (once, as the container does), backslashes count as slashes, and empty, {@code .} and
 * {@code ..} segments are resolved. {@code /api/..;/login}, {@code //login}, {@code /login;x=1} and
 * {@code /%6cogin} all become {@code [login]}. When in doubt it errs towards matching more.
 */
final class RequestPath {
  private static final String[] ROOT = new String[0];

  private RequestPath() {}

  static String[] segments(String rawUri) {
    if (rawUri == null || rawUri.isEmpty()) {
      return ROOT;
    }
    if (isPlain(rawUri)) {
      return plainSegments(rawUri);
    }
    String path = decode(stripPathParameters(rawUri));
    List<String> out = new ArrayList<>();
    int start = 0;
    int n = path.length();
    for (int i = 0; i <= n; i++) {
      if (i == n || path.charAt(i) == '/' || path.charAt(i) == '\\') {
        addSegment(out, path.substring(start, i));
        start = i + 1;
      }
    }
    return out.toArray(ROOT);
  }

  /** Splits a canonical path with one array and no list: the request path's common case. */
  private static String[] plainSegments(String path) {
    int count = 0;
    for (int i = 0; i < path.length(); i++) {
      if (path.charAt(i) != '/' && (i == 0 || path.charAt(i - 1) == '/')) {
        count++;
      }
    }
    String[] segments = new String[count];
    int start = -1;
    int k = 0;
    for (int i = 0; i <= path.length(); i++) {
      boolean slash = i == path.length() || path.charAt(i) == '/';
      if (slash && start >= 0) {
        segments[k++] = path.substring(start, i);
        start = -1;
      } else if (!slash && start < 0) {
        start = i;
      }
    }
    return segments;
  }

  /** The common case, already canonical: no escapes, parameters, dots, backslashes or "//". */
  private static boolean isPlain(String uri) {
    char last = '/';
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c == '%'
          || c == ';'
          || c == '\\'
          || (c == '.' && last == '/')
          || (c == '/' && last == '/' && i > 0)) {
        return false;
      }
      last = c;
    }
    return true;
  }

  private static void addSegment(List<String> out, String segment) {
    if (segment.isEmpty() || segment.equals(".")) {
      return;
    }
    if (segment.equals("..")) {
      if (!out.isEmpty()) {
        out.remove(out.size() - 1);
      }
      return;
    }
    out.add(segment);
  }

  /** Cuts every ";..." up to the next slash, as containers do before mapping. */
  private static String stripPathParameters(String uri) {
    if (uri.indexOf(';') < 0) {
      return uri;
    }
    StringBuilder sb = new StringBuilder(uri.length());
    boolean inParams = false;
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c == '/') {
        inParams = false;
      } else if (c == ';') {
        inParams = true;
      }
      if (!inParams) {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** Decodes %XX as UTF-8; a malformed escape stays as it was, malformed UTF-8 becomes U+FFFD. */
  static String decode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int hi = i + 2 < s.length() && c == '%' ? IpAddress.hexDigit(s.charAt(i + 1)) : -1;
      int lo = hi >= 0 ? IpAddress.hexDigit(s.charAt(i + 2)) : -1;
      if (lo >= 0) {
        bytes.write(hi << 4 | lo);
        i += 2;
      } else {
        int codePoint = s.codePointAt(i);
        byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
        bytes.write(utf8, 0, utf8.length);
        i += Character.charCount(codePoint) - 1;
      }
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }
}
