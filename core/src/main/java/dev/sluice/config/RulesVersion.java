package dev.sluice.config;

import dev.sluice.support.ShortHash;

/**
 * The version of a ratelimit.yaml: the first 12 hex digits of the SHA-256 of its bytes. A content
 * hash rather than a counter, so every JVM of a fleet names the same file the same way, and the
 * version in a log line can be checked against a file with {@code sha256sum}.
 */
public final class RulesVersion {
  private RulesVersion() {}

  public static String of(byte[] content) {
    return ShortHash.of(content);
  }
}
