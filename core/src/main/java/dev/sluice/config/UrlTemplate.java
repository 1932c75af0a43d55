package dev.sluice.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A URL as ratelimit.yaml writes it, with {@code ${NAME}} for environment variables. A variable in
 * the user info is a value, not URL syntax: it is percent-encoded, so a password may hold any
 * character ({@code @ : / ? # %}, spaces) and reaches Redis exactly as set. Anywhere else a
 * variable is URL text, so one may hold a whole URL.
 */
final class UrlTemplate {
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final String UNRESERVED =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

  private UrlTemplate() {}

  /**
   * The text of {@code value} with its variables replaced from {@code environment}; null, after
   * reporting each variable that is not set as a problem of {@code value}, when one is not. Plain
   * text (a token) works too: it has no user info.
   */
  static String expand(Fields.Value value, Map<String, String> environment, Problems problems) {
    List<String> unset = new ArrayList<>();
    String text = expand(value.text, environment, unset);
    for (String name : unset) {
      problems.at(
          value.node, value.path, "names the environment variable " + name + ", which is not set");
    }
    return unset.isEmpty() ? text : null;
  }

  /**
   * {@code template} with its variables replaced from {@code environment}. A variable that is not
   * set is replaced by nothing and its name added to {@code unset}.
   */
  static String expand(String template, Map<String, String> environment, List<String> unset) {
    int scheme = template.indexOf("://");
    int userInfoStart = scheme < 0 ? -1 : scheme + 3;
    int userInfoEnd = userInfoStart < 0 ? -1 : userInfoEnd(template, userInfoStart);
    Matcher m = VARIABLE.matcher(template);
    StringBuffer out = new StringBuffer();
    while (m.find()) {
      String value = environment.get(m.group(1));
      if (value == null) {
        unset.add(m.group(1));
        value = "";
      }
      boolean inUserInfo = m.start() >= userInfoStart && m.end() <= userInfoEnd;
      m.appendReplacement(out, Matcher.quoteReplacement(inUserInfo ? encode(value) : value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * Whether {@code template} writes a password out in its user info, rather than naming one
   * variable for it: a file that holds a secret is copied, committed and shown around.
   */
  static boolean writesOutPassword(String template) {
    int scheme = template.indexOf("://");
    int end = scheme < 0 ? -1 : userInfoEnd(template, scheme + 3);
    if (end < 0) {
      return false;
    }
    String userInfo = template.substring(scheme + 3, end);
    int colon = userInfo.indexOf(':');
    String password = colon < 0 ? "" : userInfo.substring(colon + 1);
    return !password.isEmpty() && !VARIABLE.matcher(password).matches();
  }

  /**
   * Where the user info ends (its {@code @}), or -1 if there is none. The authority ends at the
   * first {@code / ? #}, none of which a variable's name holds, and the user info at its last
   * {@code @}.
   */
  private static int userInfoEnd(String template, int start) {
    int end = start;
    while (end < template.length() && "/?#".indexOf(template.charAt(end)) < 0) {
      end++;
    }
    int at = template.lastIndexOf('@', end - 1);
    return at >= start ? at : -1;
  }

  /** Percent-encodes every UTF-8 byte but the unreserved characters of RFC 3986. */
  private static String encode(String value) {
    StringBuilder encoded = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      if (b >= 0 && UNRESERVED.indexOf(b) >= 0) {
        encoded.append((char) b);
      } else {
        encoded.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return encoded.toString();
  }
}
