package dev.sluice.bench;

/**
 * Distinct, realistic client identities, the same for every benchmark so that Sluice and Bucket4j
 * are keyed by strings of the same shape and length.
 */
final class Identities {
  private Identities() {}

  /** The {@code i}-th of 16M distinct IPv4 addresses in 10.0.0.0/8, as a container reports them. */
  static String ipv4(int i) {
    return "10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255);
  }

  /**
   * The identity Sluice's {@code key: ip} builds for {@link #ipv4}: the store is keyed by it, and
   * Bucket4j's map by the same text, so neither gets a shorter key.
   */
  static String ipIdentity(int i) {
    return "ip=" + ipv4(i);
  }

  /** A 32-hex-digit API key, distinct per {@code i} and scattered like real random keys. */
  static String apiKey(int i) {
    long mixed = (i + 1) * 0x9E3779B97F4A7C15L;
    char[] hex = new char[32];
    hexInto(hex, 0, mixed);
    hexInto(hex, 16, Long.reverse(mixed));
    return new String(hex);
  }

  private static void hexInto(char[] out, int at, long value) {
    for (int k = 15; k >= 0; k--, value >>>= 4) {
      out[at + k] = Character.forDigit((int) (value & 15), 16);
    }
  }

  /** {@link #ipIdentity} for 0..n-1, built up front so no benchmark measures string building. */
  static String[] ipIdentities(int n) {
    String[] ids = new String[n];
    for (int i = 0; i < n; i++) {
      ids[i] = ipIdentity(i);
    }
    return ids;
  }
}
