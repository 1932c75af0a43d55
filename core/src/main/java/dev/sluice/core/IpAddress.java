package dev.sluice.core;

/**
 * Parses IP address literals without ever asking DNS (so a hostile {@code X-Forwarded-For:
 * evil.com} costs nothing) and prints them in one canonical form, so {@code ::1}, {@code
 * 0:0:0:0:0:0:0:1} and {@code [::1]:8080} are one client. IPv4-mapped IPv6 addresses are read as
 * IPv4.
 */
final class IpAddress {
  private IpAddress() {}

  /**
   * Returns 4 or 16 bytes, or null if {@code text} is not an address literal. Accepts brackets, a
   * trailing port ({@code 1.2.3.4:80}, {@code [::1]:80}) and an IPv6 zone ({@code fe80::1%eth0}).
   */
  static byte[] parse(String text) {
    if (text == null) {
      return null;
    }
    String s = text.trim();
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0 || !isPortOrNothing(s, close + 1)) {
        return null;
      }
      s = s.substring(1, close);
    } else if (s.indexOf(':') == s.lastIndexOf(':') && s.indexOf(':') > 0) {
      if (!isPortOrNothing(s, s.indexOf(':'))) {
        return null;
      }
      s = s.substring(0, s.indexOf(':')); // IPv4 with a port
    }
    int zone = s.indexOf('%');
    if (zone >= 0) {
      if (s.indexOf(':') < 0) {
        return null; // only IPv6 has zones
      }
      s = s.substring(0, zone);
    }
    return unmap(parseLiteral(s));
  }

  /**
   * Parses a bare address literal, as in a CIDR: no brackets, port, zone or spaces. An IPv4-mapped
   * address stays 16 bytes; {@link #unmap} reads it as IPv4.
   */
  static byte[] parseLiteral(String s) {
    return s.indexOf(':') >= 0 ? parseV6(s) : parseV4(s, 0, s.length());
  }

  /** The IPv4 address of an IPv4-mapped one ({@code ::ffff:1.2.3.4}); any other as it is. */
  static byte[] unmap(byte[] bytes) {
    return bytes != null && bytes.length == 16 && isV4Mapped(bytes) ? tail4(bytes) : bytes;
  }

  /** True if {@code s} ends at {@code from}, or goes on with ":" and a port number there. */
  private static boolean isPortOrNothing(String s, int from) {
    if (from == s.length()) {
      return true;
    }
    int digits = s.length() - from - 1;
    if (s.charAt(from) != ':' || digits < 1 || digits > 5) {
      return false;
    }
    for (int i = from + 1; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static byte[] parseV4(String s, int from, int to) {
    byte[] out = new byte[4];
    int part = 0;
    int value = -1;
    for (int i = from; i <= to; i++) {
      char c = i < to ? s.charAt(i) : '.';
      if (c >= '0' && c <= '9') {
        value = value < 0 ? c - '0' : value * 10 + (c - '0');
        if (value > 255) {
          return null;
        }
      } else if (c == '.' && value >= 0 && part < 4) {
        out[part++] = (byte) value;
        value = -1;
      } else {
        return null;
      }
    }
    return part == 4 ? out : null;
  }

  private static byte[] parseV6(String s) {
    byte[] out = new byte[16];
    int gap = -1;
    int pos = 0;
    int i = 0;
    int n = s.length();
    if (s.startsWith("::")) {
      gap = 0;
      i = 2;
    }
    while (i < n) {
      if (pos == 16) {
        return null;
      }
      int end = i;
      while (end < n && s.charAt(end) != ':') {
        end++;
      }
      if (end == n && s.indexOf('.', i) >= 0) {
        byte[] v4 = pos <= 12 ? parseV4(s, i, n) : null;
        if (v4 == null) {
          return null;
        }
        System.arraycopy(v4, 0, out, pos, 4);
        pos += 4;
        break;
      }
      if (end == i || end - i > 4) {
        return null;
      }
      int group = 0;
      for (int k = i; k < end; k++) {
        int d = hexDigit(s.charAt(k));
        if (d < 0) {
          return null;
        }
        group = group << 4 | d;
      }
      out[pos++] = (byte) (group >> 8);
      out[pos++] = (byte) group;
      if (end == n) {
        break;
      }
      if (end + 1 < n && s.charAt(end + 1) == ':') {
        if (gap >= 0) {
          return null;
        }
        gap = pos;
        i = end + 2;
      } else if (end + 1 == n) {
        return null; // trailing single colon
      } else {
        i = end + 1;
      }
    }
    if (gap < 0) {
      return pos == 16 ? out : null;
    }
    if (pos == 16) {
      return null; // "::" must stand for at least one group
    }
    byte[] expanded = new byte[16];
    System.arraycopy(out, 0, expanded, 0, gap);
    System.arraycopy(out, gap, expanded, 16 - (pos - gap), pos - gap);
    return expanded;
  }

  /** The value of an ASCII hex digit, or -1; unlike Character.digit, no other script's digits. */
  static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  static boolean isV4Mapped(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
  }

  private static byte[] tail4(byte[] b) {
    return new byte[] {b[12], b[13], b[14], b[15]};
  }

  /**
   * The canonical form of {@code address}, parsed from {@code text}: the text itself when it
   * already is (the usual IPv4 peer address), which saves building a new string per request.
   */
  static String canonical(String text, byte[] address) {
    return address.length == 4 && isPlainDottedQuad(text) ? text : format(address);
  }

  /** Digits and three single dots, no leading zeros: exactly what {@link #format} prints. */
  private static boolean isPlainDottedQuad(String s) {
    int dots = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean groupStart = i == 0 || s.charAt(i - 1) == '.';
      if (c == '.') {
        if (groupStart || ++dots > 3) {
          return false;
        }
      } else if (c < '0'
          || c > '9'
          || (c == '0' && groupStart && i + 1 < s.length() && s.charAt(i + 1) != '.')) {
        return false;
      }
    }
    return dots == 3 && s.charAt(s.length() - 1) != '.';
  }

  /** Dotted quad, or RFC 5952 IPv6 (lower case, longest zero run compressed). */
  static String format(byte[] b) {
    if (b.length == 4) {
      return (b[0] & 255) + "." + (b[1] & 255) + "." + (b[2] & 255) + "." + (b[3] & 255);
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int g = 0; g < 8; ) {
      int run = 0;
      while (g + run < 8 && group(b, g + run) == 0) {
        run++;
      }
      if (run > bestLength) {
        bestStart = g;
        bestLength = run;
      }
      g += Math.max(run, 1);
    }
    StringBuilder sb = new StringBuilder(39);
    for (int g = 0; g < 8; g++) {
      if (g == bestStart) {
        sb.append("::");
        g += bestLength - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(group(b, g)));
    }
    return sb.toString();
  }

  private static int group(byte[] b, int g) {
    return (b[2 * g] & 255) << 8 | (b[2 * g + 1] & 255);
  }
}
