package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CidrTest {

  private static boolean contains(String cidr, String address) {
    return Cidr.parse(cidr).contains(IpAddress.parse(address));
  }

  @Test
  void ipv4ByteAlignedPrefix() {
    assertThat(contains("10.0.0.0/8", "10.0.0.0")).isTrue();
    assertThat(contains("10.0.0.0/8", "10.255.255.255")).isTrue();
    assertThat(contains("10.0.0.0/8", "11.0.0.0")).isFalse();
    assertThat(contains("10.0.0.0/8", "9.255.255.255")).isFalse();
  }

  @Test
  void ipv4PrefixOfTwenty() {
    assertThat(contains("192.168.0.0/20", "192.168.15.255")).isTrue();
    assertThat(contains("192.168.0.0/20", "192.168.16.0")).isFalse();
    assertThat(contains("172.16.0.0/12", "172.31.255.255")).isTrue();
    assertThat(contains("172.16.0.0/12", "172.32.0.0")).isFalse();
  }

  @Test
  void ipv6Prefixes() {
    assertThat(contains("2001:db8::/32", "2001:db8:ffff::1")).isTrue();
    assertThat(contains("2001:db8::/32", "2001:db9::")).isFalse();
    assertThat(contains("2001:db8::/65", "2001:db8::7fff:ffff:ffff:ffff")).isTrue();
    assertThat(contains("2001:db8::/65", "2001:db8::8000:0:0:0")).isFalse();
    assertThat(contains("fc00::/7", "fdff::1")).isTrue();
    assertThat(contains("fc00::/7", "fe00::1")).isFalse();
  }

  @Test
  void bareAddressIsANetworkOfOne() {
    assertThat(contains("192.0.2.1", "192.0.2.1")).isTrue();
    assertThat(contains("192.0.2.1", "192.0.2.2")).isFalse();
    assertThat(contains("::1", "0:0:0:0:0:0:0:1")).isTrue();
    assertThat(contains("::1", "::2")).isFalse();
  }

  @Test
  void zeroPrefixHoldsEveryAddressOfItsFamilyOnly() {
    assertThat(contains("0.0.0.0/0", "203.0.113.9")).isTrue();
    assertThat(contains("0.0.0.0/0", "2001:db8::1")).isFalse();
    assertThat(contains("::/0", "2001:db8::1")).isTrue();
    assertThat(contains("::/0", "203.0.113.9")).isFalse();
  }

  @Test
  void ipv4MappedNetworkHoldsTheIpv4AddressesItMaps() {
    assertThat(contains("::ffff:10.0.0.0/104", "10.1.2.3")).isTrue();
    assertThat(contains("::ffff:10.0.0.0/104", "::ffff:10.1.2.3")).isTrue();
    assertThat(contains("::ffff:10.0.0.0/104", "11.0.0.0")).isFalse();
    assertThat(contains("::ffff:192.0.2.1", "192.0.2.1")).isTrue();
  }

  @Test
  void hostBitsAreIgnored() {
    assertThat(contains("10.1.2.3/8", "10.9.9.9")).isTrue();
  }

  @Test
  void containsNothingOfNull() {
    assertThat(Cidr.parse("0.0.0.0/0").contains(null)).isFalse();
  }

  @Test
  void surroundingSpacesAreIgnoredAndTheTextIsKept() {
    assertThat(contains(" 10.0.0.0/8 ", "10.0.0.1")).isTrue();
    assertThat(Cidr.parse("10.0.0.0/8")).hasToString("10.0.0.0/8");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "/8",
        "evil.com",
        "evil.com/8",
        "10.0.0",
        "256.0.0.0/8",
        "1.2.3.4:80",
        "[::1]",
        "[::1]/128",
        "fe80::1%eth0",
        "fe80::1%eth0/64",
        "1::2::3/64"
      })
  void rejectsWhatIsNoAddress(String text) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Cidr.parse(text))
        .withMessage("'" + text + "' is not an IP address or CIDR");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "10.0.0.0/",
        "10.0.0.0/33",
        "10.0.0.0/-1",
        "10.0.0.0/+8",
        "10.0.0.0/8/8",
        "10.0.0.0/a",
        "10.0.0.0/ 8",
        "10.0.0.0/\uFF18",
        "10.0.0.0/0008"
      })
  void rejectsBadIpv4Prefixes(String text) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Cidr.parse(text))
        .withMessage("'" + text + "': prefix length must be between 0 and 32");
  }

  @Test
  void rejectsBadIpv6Prefixes() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Cidr.parse("::/129"))
        .withMessage("'::/129': prefix length must be between 0 and 128");
  }
}
