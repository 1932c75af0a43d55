package dev.sluice.config;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The version of a ratelimit.yaml: the first 12 hex digits of the SHA-256 of its bytes. A content
 * hash rather than a counter, so every JVM of a fleet names the same file the same way, and the
 * version in a log line can be checked against a file with {@code sha256sum}.
 */
public final class RulesVersion {
  private static final int HEX_DIGITS = 12;

  private RulesVersion() {}

  public static String of(byte[] content) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    StringBuilder hex = new StringBuilder(HEX_DIGITS);
    for (int i = 0; i < HEX_DIGITS / 2; i++) {
      hex.append(Character.forDigit((digest[i] >> 4) & 0xf, 16))
          .append(Character.forDigit(digest[i] & 0xf, 16));
    }
    return hex.toString();
  }
}
