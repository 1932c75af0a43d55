package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TiersTest {
  private static final String PROXY = "10.0.0.1";
  private static final String CLIENT = "203.0.113.7";

  private static String tierOf(Tiers tiers, String apiKeyHeader, TestRequest request) {
    Rules rules =
        new Rules(
            Collections.<Rule>emptyList(),
            Collections.<PathPattern>emptyList(),
            new ClientIp(List.of(Cidr.parse("10.0.0.0/8"))),
            tiers,
            apiKeyHeader,
            Cors.NONE);
    return tiers.tierOf(new Subject(request, rules));
  }

  private static String tierOf(Tiers tiers, TestRequest request) {
    return tierOf(tiers, Rules.DEFAULT_API_KEY_HEADER, request);
  }

  private static final Tiers BY_KEY = new Tiers(null, Map.of("k-gold", "gold", "k-free", "free"));
  private static final Tiers BY_HEADER = new Tiers("X-Plan", Map.of("k-gold", "gold"));

  @Test
  void apiKeyMapGivesTheTier() {
    assertThat(tierOf(BY_KEY, TestRequest.get("/").from(CLIENT).header("X-API-Key", "k-gold")))
        .isEqualTo("gold");
    assertThat(tierOf(BY_KEY, TestRequest.get("/").from(CLIENT).header("x-api-key", "k-free")))
        .isEqualTo("free");
  }

  @Test
  void apiKeyIsReadFromTheConfiguredHeader() {
    TestRequest request = TestRequest.get("/").from(CLIENT).header("X-Key", "k-gold");
    assertThat(tierOf(BY_KEY, "X-Key", request)).isEqualTo("gold");
    assertThat(tierOf(BY_KEY, request)).isNull();
  }

  @Test
  void unknownOrMissingApiKeyHasNoTier() {
    assertThat(tierOf(BY_KEY, TestRequest.get("/").from(CLIENT).header("X-API-Key", "k-other")))
        .isNull();
    assertThat(tierOf(BY_KEY, TestRequest.get("/").from(CLIENT))).isNull();
    assertThat(tierOf(BY_KEY, TestRequest.get("/").from(CLIENT).header("X-API-Key", "K-GOLD")))
        .isNull();
  }

  @Test
  void tierHeaderIsHonouredFromATrustedProxy() {
    assertThat(tierOf(BY_HEADER, TestRequest.get("/").from(PROXY).header("X-Plan", " pro ")))
        .isEqualTo("pro");
  }

  @Test
  void tierHeaderFromAnUntrustedPeerIsIgnored() {
    TestRequest request =
        TestRequest.get("/")
            .from(CLIENT)
            .header("X-Plan", "enterprise")
            .header("X-Forwarded-For", "10.0.0.9");
    assertThat(tierOf(BY_HEADER, request)).isNull();
  }

  @Test
  void blankTierHeaderIsNoTier() {
    assertThat(tierOf(BY_HEADER, TestRequest.get("/").from(PROXY).header("X-Plan", "  "))).isNull();
    assertThat(tierOf(BY_HEADER, TestRequest.get("/").from(PROXY))).isNull();
  }

  @Test
  void apiKeyTierWinsOverTheHeader() {
    TestRequest request =
        TestRequest.get("/").from(PROXY).header("X-Plan", "free").header("X-API-Key", "k-gold");
    assertThat(tierOf(BY_HEADER, request)).isEqualTo("gold");
  }

  @Test
  void withoutATierHeaderEvenATrustedProxyCannotPickATier() {
    assertThat(tierOf(BY_KEY, TestRequest.get("/").from(PROXY).header("X-Plan", "pro"))).isNull();
  }

  @Test
  void noneHasNoTiers() {
    assertThat(tierOf(Tiers.NONE, TestRequest.get("/").from(PROXY).header("X-API-Key", "k-gold")))
        .isNull();
  }

  @Test
  void theMapIsCopied() {
    Map<String, String> byKey = new HashMap<>(Map.of("k", "gold"));
    Tiers tiers = new Tiers(null, byKey);
    byKey.put("k", "free");
    assertThat(tierOf(tiers, TestRequest.get("/").from(CLIENT).header("X-API-Key", "k")))
        .isEqualTo("gold");
  }
}
