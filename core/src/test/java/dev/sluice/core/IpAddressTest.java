package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpAddressTest {

  private static String canonical(String text) {
    byte[] bytes = IpAddress.parse(text);
    return bytes == null ? null : IpAddress.format(bytes);
  }

  @Test
  void parsesIpv4() {
    assertThat(IpAddress.parse("192.0.2.1")).containsExactly(192, 0, 2, 1);
    assertThat(canonical("0.0.0.0")).isEqualTo("0.0.0.0");
    assertThat(canonical("255.255.255.255")).isEqualTo("255.255.255.255");
  }

  @ParameterizedTest
  @CsvSource({
    "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
    "2001:DB8::1,                             2001:db8::1",
    "2001:db8::0001,                          2001:db8::1",
    "0:0:0:0:0:0:0:1,                         ::1",
    "::1,                                     ::1",
    "::,                                      ::",
    "0:0:0:0:0:0:0:0,                         ::",
    "1::,                                     1::",
    "1:0:0:0:0:0:0:0,                         1::",
    "::1:2:3:4:5:6:7,                         0:1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7::,                         1:2:3:4:5:6:7:0",
    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff, ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "fe80::1:0:0:1,                           fe80::1:0:0:1"
  })
  void parsesIpv6AndPrintsRfc5952(String text, String expected) {
    assertThat(canonical(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({
    // The longest run of zero groups is compressed; of equal runs, the first.
    "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
    "2001:0:0:1:0:0:0:1,   2001:0:0:1::1",
    // A single zero group is never compressed.
    "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
    "2001:db8::1:1:1:1:1,  2001:db8:0:1:1:1:1:1",
    "0:1:0:1:0:1:0:1,      0:1:0:1:0:1:0:1",
    "1:0:0:2:0:0:0:3,      1:0:0:2::3"
  })
  void compressesLikeRfc5952(String text, String expected) {
    assertThat(canonical(text)).isEqualTo(expected);
  }

  @Test
  void readsEmbeddedIpv4() {
    assertThat(canonical("1:2:3:4:5:6:1.2.3.4")).isEqualTo("1:2:3:4:5:6:102:304");
    assertThat(canonical("64:ff9b::192.0.2.33")).isEqualTo("64:ff9b::c000:221");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "::ffff:1.2.3.4",
        "::FFFF:1.2.3.4",
        "0:0:0:0:0:ffff:1.2.3.4",
        "::ffff:102:304",
        "[::ffff:1.2.3.4]:443"
      })
  void readsIpv4MappedAsIpv4(String text) {
    assertThat(IpAddress.parse(text)).hasSize(4);
    assertThat(canonical(text)).isEqualTo("1.2.3.4");
  }

  @ParameterizedTest
  @CsvSource({
    "[::1],               ::1",
    "[::1]:8080,          ::1",
    "[2001:db8::17]:4711, 2001:db8::17",
    "192.0.2.1:8080,      192.0.2.1",
    "[192.0.2.1]:80,      192.0.2.1",
    "fe80::1%eth0,        fe80::1",
    "[fe80::1%25eth0]:80, fe80::1",
    "' 192.0.2.1 ',       192.0.2.1"
  })
  void acceptsBracketsPortsZonesAndSpaces(String text, String expected) {
    assertThat(canonical(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "evil.com",
        "localhost",
        "1.2.3",
        "1.2.3.4.5",
        "1.2.3.4.",
        ".1.2.3.4",
        "1..2.3",
        "256.1.1.1",
        "1.2.3.256",
        "-1.2.3.4",
        "1.2.3.4:",
        "1.2.3.4:http",
        "1.2.3.4:123456",
        "1.2.3.4%eth0",
        "0x7f.0.0.1",
        "\uFF11.2.3.4",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4:5:6:7:8::",
        "1:2:3:4:5:6:7::8",
        ":::",
        "::::",
        "1::2::3",
        ":1::2",
        "1::2:",
        "1:2",
        "12345::",
        "::g",
        "\uFF11::1",
        "::1.2.3",
        "::1.2.3.4.5",
        "1.2.3.4::",
        "[::1",
        "[::1]x",
        "[::1]:",
        "[::1]:port",
        "[evil.com]",
        "::ffff:1.2.3.4:80"
      })
  void rejectsAnythingButAnAddressLiteral(String text) {
    assertThat(IpAddress.parse(text)).isNull();
  }

  @Test
  void rejectsNull() {
    assertThat(IpAddress.parse(null)).isNull();
  }

  @Test
  void parseLiteralTakesNoPortBracketOrZoneAndKeepsMappedAddresses() {
    assertThat(IpAddress.parseLiteral("::ffff:1.2.3.4")).hasSize(16);
    assertThat(IpAddress.parseLiteral("1.2.3.4:80")).isNull();
    assertThat(IpAddress.parseLiteral("[::1]")).isNull();
    assertThat(IpAddress.parseLiteral("fe80::1%eth0")).isNull();
  }

  @Test
  void formatRoundTripsAndAgreesWithTheJdkOnRandomAddresses() throws Exception {
    Random random = new Random(5952);
    for (int i = 0; i < 2000; i++) {
      byte[] bytes = new byte[16];
      random.nextBytes(bytes);
      // Zero out random groups so that runs of zeros of every length occur.
      for (int g = 0; g < 8; g++) {
        if (random.nextInt(3) == 0) {
          bytes[2 * g] = 0;
          bytes[2 * g + 1] = 0;
        }
      }
      bytes[10] = 0; // never IPv4-mapped, which would come back as 4 bytes
      String text = IpAddress.format(bytes);
      assertThat(IpAddress.parse(text)).as(text).isEqualTo(bytes);
      assertThat(InetAddress.getByName(text).getAddress()).as(text).isEqualTo(bytes);
      assertThat(text).as(text).matches("[0-9a-f:]+").doesNotContain(":::");
      assertThat(text.indexOf("::")).as(text).isEqualTo(text.lastIndexOf("::"));
    }
  }

  @Test
  void canonicalKeepsAPlainDottedQuadAndRewritesTheRest() {
    String plain = "10.0.0.1";
    assertThat(IpAddress.canonical(plain, IpAddress.parse(plain))).isSameAs(plain);
    for (String other :
        new String[] {"010.0.0.1", "10.0.0.1:80", "::ffff:10.0.0.1", "[10.0.0.1]"}) {
      assertThat(IpAddress.canonical(other, IpAddress.parse(other))).as(other).isEqualTo(plain);
    }
    assertThat(IpAddress.canonical("0:0:0:0:0:0:0:1", IpAddress.parse("0:0:0:0:0:0:0:1")))
        .isEqualTo("::1");
  }
}
