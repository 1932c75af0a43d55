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
   * Parses {@code address[/prefix]}. An IPv4-mapped network ({@code ::ffff:10.0.0.0/104}) is read
   * as the IPv4 network it maps ({@code 10.0.0.0/8}), as client addresses are.
   *
   * @throws IllegalArgumentException with a message fit for the user
   */
  public static Cidr parse(String text) {
    String trimmed = text.trim();
    int slash = trimmed.indexOf('/');
    String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
    // A bare literal: "1.2.3.4:80", "[::1]" or "fe80::1%eth0" are no networks.
    byte[] bytes = IpAddress.parseLiteral(address);
    if (bytes == null) {
      throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR");
    }
    int max = bytes.length * 8;
    int prefix = max;
    if (slash >= 0) {
      String digits = trimmed.substring(slash + 1);
      prefix = digits.matches("[0-9]{1,3}") ? Integer.parseInt(digits) : -1;
      if (prefix > max || prefix < 0) {
        throw new IllegalArgumentException(
            "'" + text + "': prefix length must be between 0 and " + max);
      }
    }
    if (bytes.length == 16 && IpAddress.isV4Mapped(bytes) && prefix >= 96) {
      bytes = IpAddress.unmap(bytes);
      prefix -= 96;
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

  /**
   * True when {@code text} is an address literal within this network, written as clients and
   * proxies write one: {@code 127.0.0.1:8080}, {@code [::1]}. A name is never looked up.
   */
  public boolean containsLiteral(String text) {
    return contains(IpAddress.parse(text));
  }

  @Override
  public String toString() {
    return text;
  }
}
