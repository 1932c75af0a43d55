package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyTest {
  private static final String SAFE = "[A-Za-z0-9._~@%#=&-]+";
  private static final Rules RULES =
      new Rules(
          Collections.<Rule>emptyList(),
          Collections.<PathPattern>emptyList(),
          new ClientIp(List.of(Cidr.parse("10.0.0.0/8"))),
          Tiers.NONE,
          Rules.DEFAULT_API_KEY_HEADER,
          Cors.NONE);

  private static String identity(String key, TestRequest request) {
    return identity(List.of(key.split(",")), request);
  }

  private static String identity(List<String> parts, TestRequest request) {
    return Key.parse(parts).identityOf(new Subject(request, RULES));
  }

  @Test
  void ipIsTheResolvedClientAddressEscaped() {
    assertThat(identity("ip", TestRequest.get("/").from("203.0.113.7")))
        .isEqualTo("ip=203.0.113.7");
    assertThat(identity("ip", TestRequest.get("/").from("0:0:0:0:0:0:0:1")))
        .as("an IPv6 client is its /64")
        .isEqualTo("ip=%3A%3A%2F64");
    assertThat(
            identity(
                "ip",
                TestRequest.get("/").from("10.0.0.1").header("X-Forwarded-For", "203.0.113.7")))
        .isEqualTo("ip=203.0.113.7");
  }

  @Test
  void userApiKeyAndHeaderParts() {
    TestRequest request =
        TestRequest.get("/")
            .from("203.0.113.7")
            .user("alice")
            .header("x-api-key", "k-1")
            .header("X-Tenant", "acme");
    assertThat(identity("user", request)).isEqualTo("user=alice");
    assertThat(identity("api_key", request)).isEqualTo("key=k-1");
    assertThat(identity("header:X-Tenant", request)).isEqualTo("h.x-tenant=acme");
    assertThat(identity("global", request)).isEqualTo("global");
  }

  /** A one-part key writes a plain value without a builder: the same identity as escaping gives. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "k-1",
        "a.b_c~d@e",
        "k 1",
        "k%31",
        "é",
        "a{b}",
        "64aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "65aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
      })
  void onePartIdentitiesAreTheEscapedValue(String value) {
    StringBuilder escaped = new StringBuilder("h.x-tenant=");
    Identity.append(escaped, value);
    TestRequest request = TestRequest.get("/").from("203.0.113.7").header("X-Tenant", value);
    assertThat(identity("header:X-Tenant", request)).isEqualTo(escaped.toString());
    assertThat(identity("header:X-Tenant,ip", request)).isEqualTo(escaped + "&ip=203.0.113.7");
  }

  @Test
  void compositeKeysJoinTheirPartsInOrder() {
    TestRequest request = TestRequest.get("/").from("203.0.113.7").user("alice");
    assertThat(identity(List.of("ip", "user"), request)).isEqualTo("ip=203.0.113.7&user=alice");
    assertThat(identity(List.of("user", "ip"), request)).isEqualTo("user=alice&ip=203.0.113.7");
  }

  @Test
  void absentOrEmptyPartsGiveNoIdentity() {
    TestRequest anonymous = TestRequest.get("/").from("203.0.113.7");
    assertThat(identity("user", anonymous)).isNull();
    assertThat(identity(List.of("ip", "user"), anonymous)).isNull();
    assertThat(identity("api_key", anonymous)).isNull();
    assertThat(identity("header:X-Tenant", anonymous.header("X-Tenant", ""))).isNull();
    assertThat(identity("user", TestRequest.get("/").from("203.0.113.7").user(""))).isNull();
  }

  @Test
  void hostileValuesCannotForgeAnotherPart() {
    String forged =
        identity(
            List.of("header:X-A", "user"),
            TestRequest.get("/").from("203.0.113.7").header("X-A", "x&user=bob").user("eve"));
    String honest =
        identity(
            List.of("header:X-A", "user"),
            TestRequest.get("/").from("203.0.113.7").header("X-A", "x").user("bob"));
    assertThat(forged).isEqualTo("h.x-a=x%26user%3Dbob&user=eve").isNotEqualTo(honest);
  }

  @Test
  void identitiesHoldOnlySafeCharactersAndNoBraces() {
    TestRequest request =
        TestRequest.get("/")
            .from("203.0.113.7")
            .user("{tag}: *\n\0 é €")
            .header("X-*", "{}".repeat(50));
    String identity = identity(List.of("ip", "user", "header:X-*"), request);
    assertThat(identity).matches(SAFE).doesNotContain("{", "}", ":", "*", " ");
    assertThat(identity).startsWith("ip=203.0.113.7&user=%7Btag%7D%3A%20%2A%0A%00%20%E9%20%u20AC&");
    assertThat(identity).contains("&h.x-%2A=#");
  }

  @Test
  void compositeIdentitiesAreInjective() {
    Random random = new Random(7);
    String alphabet = "a=&%#{}:";
    Map<String, List<String>> seen = new HashMap<>();
    Key key = Key.parse(List.of("user", "header:X-A"));
    for (int i = 0; i < 20_000; i++) {
      String user = randomString(random, alphabet, 1 + random.nextInt(6));
      String header = randomString(random, alphabet, 1 + random.nextInt(6));
      TestRequest request =
          TestRequest.get("/").from("203.0.113.7").user(user).header("X-A", header);
      String identity = key.identityOf(new Subject(request, RULES));
      List<String> earlier = seen.putIfAbsent(identity, List.of(user, header));
      assertThat(earlier == null || earlier.equals(List.of(user, header)))
          .as("%s and %s/%s both give %s", earlier, user, header, identity)
          .isTrue();
    }
  }

  private static String randomString(Random random, String alphabet, int length) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  @Test
  void headerNamesAreCaseInsensitiveAndTrimmed() {
    TestRequest request = TestRequest.get("/").from("203.0.113.7").header("x-tenant", "acme");
    assertThat(identity("header: X-TENANT ", request)).isEqualTo("h.x-tenant=acme");
    assertThat(identity("HEADER:X-Tenant", request)).isEqualTo("h.x-tenant=acme");
  }

  @Test
  void toStringIsThePartsAsWritten() {
    assertThat(Key.parse(List.of("ip", "header:X-A"))).hasToString("ip, header:X-A");
  }

  @Test
  void kindsAreCaseInsensitiveLikeTheHeaderPrefix() {
    assertThat(Key.parse(List.of("IP", "Header:X-A"))).hasToString("IP, Header:X-A");
  }

  @ParameterizedTest
  @ValueSource(strings = {"bogus", "ips", "", "header", "api-key"})
  void unknownKindsAreRejected(String part) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of(part)))
        .withMessageContaining("is not a key");
  }

  @ParameterizedTest
  @ValueSource(strings = {"header:", "header: ", "header:X A", "header:X:A", "header:{a}"})
  void headerPartsNeedAHeaderName(String part) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of(part)))
        .withMessageContaining("header:NAME needs a header name");
  }

  @Test
  void partsMayNotRepeat() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of("ip", "user", "ip")))
        .withMessage("'ip' appears twice in the key");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of("header:X-A", "header:x-a")))
        .withMessage("'header:x-a' appears twice in the key");
  }

  @Test
  void globalStandsAlone() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of("ip", "global")))
        .withMessage("'global' cannot be part of a composite key");
  }

  @Test
  void aKeyNeedsAPart() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of()))
        .withMessage("a key needs at least one part");
  }

  @Test
  void alternativesCountByTheFirstPartARequestHas() {
    TestRequest keyed = TestRequest.get("/").from("203.0.113.7").header("x-api-key", "k-1");
    TestRequest anonymous = TestRequest.get("/").from("203.0.113.7");
    assertThat(identity(List.of("api_key | ip"), keyed)).isEqualTo("key=k-1");
    assertThat(identity(List.of("api_key | ip"), anonymous)).isEqualTo("ip=203.0.113.7");
    assertThat(identity(List.of("user|api_key|global"), anonymous)).isEqualTo("global");
    assertThat(identity(List.of("user | api_key"), anonymous))
        .as("a request with none of the alternatives is not limited")
        .isNull();
    assertThat(Key.parse(List.of(" api_key | ip "))).hasToString("api_key | ip");
  }

  @ParameterizedTest
  @ValueSource(strings = {"api_key |", "| ip", "api_key || ip"})
  void anEmptyAlternativeIsRefused(String key) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of(key)))
        .withMessage("'" + key + "': each alternative needs a part, e.g. api_key | ip");
  }

  @Test
  void alternativesAreCheckedLikeParts() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of("global | ip")))
        .withMessage("'global' can only be the last alternative: every request has it");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of("ip | IP")))
        .withMessage("'ip' appears twice in the key");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of("api_key | ipp")))
        .withMessageStartingWith("'ipp' is not a key");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Key.parse(List.of("user", "api_key | ip")))
        .withMessage("'api_key | ip': alternatives (a | b) cannot be part of a composite key");
  }
}
