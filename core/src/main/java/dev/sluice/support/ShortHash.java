package dev.sluice.support;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The first 12 hex digits (48 bits) of a SHA-256: a name that is the same in every JVM and never
 * reveals what it names, for a file's version, a hidden rule id, an identity in a metric.
 */
public final class ShortHash {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private ShortHash() {}

  public static String of(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }

  public static String of(byte[] bytes) {
    byte[] digest = sha256(bytes);
    char[] hex = new char[12];
    for (int i = 0; i < hex.length / 2; i++) {
      hex[2 * i] = HEX[(digest[i] >> 4) & 15];
      hex[2 * i + 1] = HEX[digest[i] & 15];
    }
    return new String(hex);
  }

  /** The whole SHA-256 of {@code text} in UTF-8. */
  public static byte[] sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
