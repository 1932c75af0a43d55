package dev.sluice.metrics;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Short SHA-256 digests, for names that must be stable but need not be reversible. */
final class Digests {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Digests() {}

  /** The first 12 hex digits (48 bits) of the SHA-256 of {@code bytes}. */
  static String sha256Hex12(byte[] bytes) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
    char[] hex = new char[12];
    for (int i = 0; i < hex.length / 2; i++) {
      hex[2 * i] = HEX[(digest[i] >> 4) & 15];
      hex[2 * i + 1] = HEX[digest[i] & 15];
    }
    return new String(hex);
  }
}
