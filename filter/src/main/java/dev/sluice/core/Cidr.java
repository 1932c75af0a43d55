package dev.sluice.core;

/** A network such as {@code 10.0.0.0/8} or {@code ::1/128}; a bare address is a network of one. */
public final class Cidr {
  private final byte[] network;
  private final int prefix;
  private final String text;

  private Cidr(byte[] network, int prefix, String text) {
    this.network = network;
    this.prefix = prefix;
    this.text = text;
  }

  /**
   * Parses {@code address[/prefix]}.
   *
   * @throws IllegalArgumentException with a message fit for the user
   */
  public static Cidr parse(String text) {
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    byte[] bytes = address.indexOf('[') < 0 ? IpAddress.parse(address) : null;
    if (bytes == null || address.trim().isEmpty() || address.contains("]")) {
      throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR");
    }
    int max = bytes.length * 8;
    int prefix = max;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(text.substring(slash + 1).trim());
      } catch (NumberFormatException e) {
        prefix = -1;
      }
      if (prefix < 0 || prefix > max) {
        throw new IllegalArgumentException(
            "'" + text + "': prefix length must be between 0 and " + max);
      }
    }
    return new Cidr(bytes, prefix, text);
  }

  public boolean contains(byte[] address) {
    if (address == null || address.length != network.length) {
      return false;
    }
    int full = prefix / 8;
    for (int i = 0; i < full; i++) {
      if (address[i] != network[i]) {
        return false;
      }
    }
    int rest = prefix % 8;
    if (rest == 0) {
      return true;
    }
    int mask = 0xff << (8 - rest) & 0xff;
    return (address[full] & mask) == (network[full] & mask);
  }

  @Override
  public String toString() {
    return text;
  }
}
