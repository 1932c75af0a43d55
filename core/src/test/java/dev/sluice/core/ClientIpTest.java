package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientIpTest {
  private static final String PROXY = "10.0.0.1";
  private static final String CLIENT = "203.0.113.7";

  private static List<Cidr> cidrs(String... texts) {
    List<Cidr> trusted = new ArrayList<>();
    for (String cidr : texts) {
      trusted.add(Cidr.parse(cidr));
    }
    return trusted;
  }

  /** Behind proxies writing X-Forwarded-For; IPv6 clients exact, to test the chain itself. */
  private static final ClientIp BEHIND_PROXIES =
      new ClientIp(cidrs("10.0.0.0/8", "::1/128"), ClientIp.X_FORWARDED_FOR, 128);

  /** Behind proxies writing RFC 7239 Forwarded. */
  private static final ClientIp BEHIND_FORWARDED =
      new ClientIp(cidrs("10.0.0.0/8", "::1/128"), ClientIp.FORWARDED, 128);

  @Test
  void withoutTrustedProxiesThePeerIsTheClient() {
    ClientIp none = new ClientIp(Collections.<Cidr>emptyList());
    TestRequest request = TestRequest.get("/").from(PROXY).header("X-Forwarded-For", CLIENT);
    assertThat(none.resolve(request)).isEqualTo(PROXY);
    assertThat(none.peerIsTrusted(request)).isFalse();
  }

  @Test
  void untrustedPeerCannotSpoofItsAddressWithForwardingHeaders() {
    TestRequest request =
        TestRequest.get("/")
            .from(CLIENT)
            .header("X-Forwarded-For", "198.51.100.1")
            .header("Forwarded", "for=198.51.100.2");
    assertThat(BEHIND_PROXIES.peerIsTrusted(request)).isFalse();
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void untrustedPeerIsPrintedCanonically() {
    assertThat(BEHIND_PROXIES.resolve(TestRequest.get("/").from("2001:DB8:0:0:0:0:0:1")))
        .isEqualTo("2001:db8::1");
    assertThat(BEHIND_PROXIES.resolve(TestRequest.get("/").from("[2001:db8::1]:443")))
        .isEqualTo("2001:db8::1");
  }

  @Test
  void trustedPeerForwardsTheRightMostEntry() {
    TestRequest request = TestRequest.get("/").from(PROXY).header("X-Forwarded-For", CLIENT);
    assertThat(BEHIND_PROXIES.peerIsTrusted(request)).isTrue();
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void entriesLeftOfTheFirstUntrustedOneAreTheClientsOwnAndIgnored() {
    TestRequest request =
        TestRequest.get("/")
            .from(PROXY)
            .header("X-Forwarded-For", "198.51.100.1, 10.0.0.9, " + CLIENT);
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void chainsOfTrustedProxiesAreWalkedPast() {
    TestRequest request =
        TestRequest.get("/")
            .from(PROXY)
            .header("X-Forwarded-For", "198.51.100.1, " + CLIENT + ", 10.0.0.3, 10.0.0.2");
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void severalHeaderLinesFormOneListInOrder() {
    TestRequest request =
        TestRequest.get("/")
            .from(PROXY)
            .header("X-Forwarded-For", "198.51.100.1, " + CLIENT)
            .header("X-Forwarded-For", "10.0.0.3")
            .header("X-Forwarded-For", "10.0.0.2");
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);

    TestRequest spoofLastLine =
        TestRequest.get("/")
            .from(PROXY)
            .header("X-Forwarded-For", "198.51.100.1")
            .header("X-Forwarded-For", CLIENT);
    assertThat(BEHIND_PROXIES.resolve(spoofLastLine)).isEqualTo(CLIENT);
  }

  @Test
  void emptyElementsAndSpacesAreSkipped() {
    TestRequest request =
        TestRequest.get("/")
            .from(PROXY)
            .header("X-Forwarded-For", "")
            .header("X-Forwarded-For", " " + CLIENT + " ,, , 10.0.0.2 ,");
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void garbageLeftOfTheClientIsIgnored() {
    TestRequest request =
        TestRequest.get("/").from(PROXY).header("X-Forwarded-For", "evil.com, <script>, " + CLIENT);
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void garbageFromATrustedHopStopsTheWalkAtTheLastTrustedAddress() {
    TestRequest request =
        TestRequest.get("/")
            .from(PROXY)
            .header("X-Forwarded-For", "198.51.100.1, evil.com, 10.0.0.2");
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo("10.0.0.2");
  }

  @Test
  void onlyTrustedEntriesResolveToTheFarthestOne() {
    TestRequest request =
        TestRequest.get("/").from(PROXY).header("X-Forwarded-For", "10.0.0.3, 10.0.0.2");
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo("10.0.0.3");
  }

  @Test
  void trustedPeerWithoutForwardingHeadersIsTheClient() {
    assertThat(BEHIND_PROXIES.resolve(TestRequest.get("/").from(PROXY))).isEqualTo(PROXY);
  }

  @Test
  void forwardedEntriesMayCarryPortsAndBrackets() {
    assertThat(
            BEHIND_PROXIES.resolve(
                TestRequest.get("/").from(PROXY).header("X-Forwarded-For", CLIENT + ":4711")))
        .isEqualTo(CLIENT);
    assertThat(
            BEHIND_PROXIES.resolve(
                TestRequest.get("/")
                    .from(PROXY)
                    .header("X-Forwarded-For", "[2001:DB8:0::17]:4711, 10.0.0.2")))
        .isEqualTo("2001:db8::17");
  }

  @Test
  void forwardedHeaderIsReadWhenThereIsNoXForwardedFor() {
    assertThat(resolveForwarded("for=192.0.2.60;proto=http;by=203.0.113.43"))
        .isEqualTo("192.0.2.60");
    assertThat(resolveForwarded("for=\"[2001:db8::17]:4711\"")).isEqualTo("2001:db8::17");
    assertThat(resolveForwarded("proto=https; For=\"192.0.2.60:80\"")).isEqualTo("192.0.2.60");
    assertThat(resolveForwarded("for=198.51.100.1, for=192.0.2.43, for=10.0.0.2"))
        .isEqualTo("192.0.2.43");
  }

  @Test
  void forwardedWithoutAnAddressLeavesTheLastTrustedHop() {
    assertThat(resolveForwarded("for=unknown")).isEqualTo(PROXY);
    assertThat(resolveForwarded("for=_hidden, for=10.0.0.2")).isEqualTo("10.0.0.2");
    assertThat(resolveForwarded("proto=https")).isEqualTo(PROXY);
  }

  private static String resolveForwarded(String forwarded) {
    return BEHIND_FORWARDED.resolve(
        TestRequest.get("/").from(PROXY).header("Forwarded", forwarded));
  }

  @Test
  void onlyTheConfiguredChainIsRead() {
    // A proxy that writes one header passes the other through untouched: the client wrote it.
    TestRequest request =
        TestRequest.get("/")
            .from(PROXY)
            .header("Forwarded", "for=198.51.100.1")
            .header("X-Forwarded-For", CLIENT);
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
    assertThat(BEHIND_FORWARDED.resolve(request)).isEqualTo("198.51.100.1");
    assertThat(
            BEHIND_FORWARDED.resolve(
                TestRequest.get("/").from(PROXY).header("X-Forwarded-For", "6.6.6.7")))
        .as("a spoofed X-Forwarded-For behind a Forwarded proxy")
        .isEqualTo(PROXY);
  }

  @Test
  void anIpv6ClientIsItsSlash64ByDefault() {
    ClientIp defaults = new ClientIp(cidrs("10.0.0.0/8"));
    assertThat(defaults.resolve(TestRequest.get("/").from("2001:db8:1:2:aaaa::1")))
        .isEqualTo("2001:db8:1:2::/64");
    assertThat(defaults.resolve(TestRequest.get("/").from("2001:db8:1:2:bbbb::9")))
        .as("another address of the same subscriber")
        .isEqualTo("2001:db8:1:2::/64");
    assertThat(
            defaults.resolve(
                TestRequest.get("/").from(PROXY).header("X-Forwarded-For", "2001:db8:9:9::5")))
        .isEqualTo("2001:db8:9:9::/64");
    assertThat(
            new ClientIp(cidrs(), ClientIp.X_FORWARDED_FOR, 56)
                .resolve(TestRequest.get("/").from("2001:db8:1:2ff::1")))
        .isEqualTo("2001:db8:1:200::/56");
    assertThat(defaults.resolve(TestRequest.get("/").from(CLIENT))).isEqualTo(CLIENT);
  }

  @Test
  void aTenThousandEntryHeaderIsReadFromTheRight() {
    StringBuilder xff = new StringBuilder();
    for (int i = 0; i < 10_000; i++) {
      xff.append("198.51.100.").append(i % 256).append(", ");
    }
    xff.append(CLIENT).append(", 10.0.0.2");
    TestRequest request =
        TestRequest.get("/").from(PROXY).header("X-Forwarded-For", xff.toString());
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void aTenThousandHopTrustedChainIsNotWalkedToItsEnd() {
    StringBuilder xff = new StringBuilder(CLIENT);
    for (int i = 0; i < 10_000; i++) {
      xff.append(", 10.0.").append(i / 256).append('.').append(i % 256);
    }
    TestRequest request =
        TestRequest.get("/").from(PROXY).header("X-Forwarded-For", xff.toString());
    // After a bounded number of hops the walk stops at a trusted proxy, never at the far end.
    assertThat(BEHIND_PROXIES.resolve(request)).startsWith("10.0.").isNotEqualTo(CLIENT);
  }

  @Test
  void ipv6PeerMatchesTrustedNetworkWhateverItsSpelling() {
    TestRequest request =
        TestRequest.get("/").from("0:0:0:0:0:0:0:1").header("X-Forwarded-For", "2001:db8::99");
    assertThat(BEHIND_PROXIES.peerIsTrusted(request)).isTrue();
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo("2001:db8::99");
  }

  @Test
  void ipv4MappedPeerIsTrustedByItsIpv4Network() {
    TestRequest request =
        TestRequest.get("/").from("::ffff:10.0.0.1").header("X-Forwarded-For", CLIENT);
    assertThat(BEHIND_PROXIES.resolve(request)).isEqualTo(CLIENT);
  }

  @Test
  void peerThatIsNoAddressIsUsedAsGivenAndNeverTrusted() {
    TestRequest socket = TestRequest.get("/").from("unix-socket").header("X-Forwarded-For", CLIENT);
    assertThat(new ClientIp(cidrs("0.0.0.0/0")).peerIsTrusted(socket)).isFalse();
    assertThat(new ClientIp(cidrs("0.0.0.0/0")).resolve(socket)).isEqualTo("unix-socket");
    assertThat(BEHIND_PROXIES.resolve(TestRequest.get("/").from(null))).isEqualTo("unknown");
  }

  @Test
  void trustedProxiesAreACopyThatCannotChange() {
    List<Cidr> cidrs = new ArrayList<>(List.of(Cidr.parse("10.0.0.0/8")));
    ClientIp clientIp = new ClientIp(cidrs);
    cidrs.clear();
    assertThat(clientIp.trustedProxies()).hasSize(1);
    assertThatThrownBy(() -> clientIp.trustedProxies().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
