package dev.sluice.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Writes identities into keys so that any client-chosen value is safe: it can never collide with
 * another identity, and never carries a brace, colon, glob, space or newline that could move a
 * Redis hash tag, split a key or break a script.
 *
 * <p>A value is escaped: characters {@code [A-Za-z0-9._~@-]} stay, other characters below 256
 * become {@code %XX}, the rest {@code %uXXXX}. Escaping is injective ({@code %} itself is escaped,
 * and {@code u} is no hex digit). An escaped value longer than {@value #MAX_ESCAPED} characters is
 * replaced by {@code #} and the base64url SHA-256 of the escaped text; {@code #} never appears in
 * an escaped value, so hashed and escaped identities cannot meet either.
 */
final class Identity {
  private static final MessageDigest SHA256 = newSha256();
  static final int MAX_ESCAPED = 64;
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private Identity() {}

  /** Appends {@code value}, escaped or hashed, to {@code key}. */
  static void append(StringBuilder key, String value) {
    int start = key.length();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (isSafe(c)) {
        key.append(c);
      } else if (c < 256) {
        key.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
      } else {
        key.append("%u")
            .append(HEX[c >> 12])
            .append(HEX[c >> 8 & 15])
            .append(HEX[c >> 4 & 15])
            .append(HEX[c & 15]);
      }
    }
    if (key.length() - start > MAX_ESCAPED) {
      String escaped = key.substring(start);
      key.setLength(start);
      key.append('#').append(hash(escaped));
    }
  }

  /** Whether {@link #append} writes {@code value} as it is: every character safe, and short. */
  static boolean isPlain(String value) {
    if (value.length() > MAX_ESCAPED) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      if (!isSafe(value.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  static boolean isSafe(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == '~'
        || c == '@'
        || c == '-';
  }

  /**
   * A clone of one prototype per call, not a ThreadLocal digest: a ThreadLocal of ours on a
   * container's pooled threads would pin the web application's class loader after an undeploy, and
   * cloning skips the provider lookup of {@code getInstance}.
   */
  private static String hash(String value) {
    MessageDigest sha256;
    try {
      sha256 = (MessageDigest) SHA256.clone();
    } catch (CloneNotSupportedException e) {
      sha256 = newSha256();
    }
    byte[] digest = sha256.digest(value.getBytes(StandardCharsets.US_ASCII));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
