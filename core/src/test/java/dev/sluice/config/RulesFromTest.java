package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import org.junit.jupiter.api.Test;

/** {@code rules_from}, and what of a file published in Redis a JVM applies. */
class RulesFromTest {
  private static final String REDIS =
      "store: { type: redis, redis: { url: redis://127.0.0.1:6390 } }\n";
  private static final String RULES =
      "rules: [{ id: a, match: { path: /a }, key: ip, limit: 1, window: 1s }]\n";

  @Test
  void rulesComeFromTheFileUnlessItSaysRedis() {
    assertThat(parse(RULES).rulesFromRedis()).isFalse();
    assertThat(parse("rules_from: file\n" + RULES).rulesFromRedis()).isFalse();
    assertThat(parse("rules_from: redis\n" + REDIS + RULES).rulesFromRedis()).isTrue();
  }

  @Test
  void rulesFromRedisNeedsTheRedisStore() {
    ConfigError error = onlyError("rules_from: redis\n" + RULES);
    assertThat(error.line()).isEqualTo(1);
    assertThat(error.field()).isEqualTo("rules_from");
    assertThat(error.message())
        .isEqualTo("redis needs store.type: redis: the rules are read from the store's Redis");
    assertThat(onlyError("rules_from: git\n" + RULES).message())
        .isEqualTo("must be file or redis, got \"git\"");
  }

  @Test
  void aBrokenRedisStoreIsOneErrorNotTwo() {
    assertThat(places("rules_from: redis\nstore: { type: redis }\n" + RULES))
        .containsExactly("2 store.redis");
  }

  @Test
  void withoutALocalFileEverySectionKeptLocallyIsNamed() {
    assertThat(parse(RULES).localSectionsDifferingFrom(null)).isNull();
    assertThat(parse("store: { type: memory }\n" + RULES).localSectionsDifferingFrom(null))
        .isEqualTo("store or fleet sections");
    assertThat(parse("fleet: { size: 3 }\n" + RULES).localSectionsDifferingFrom(null))
        .isEqualTo("store or fleet sections");
    assertThat(
            parse(
                    "fleet: { size: 3 }\nclient_ip: { ipv6_prefix: 48 }\n"
                        + "admin: { token: tok-abcdefghijklmnop }\n"
                        + RULES)
                .localSectionsDifferingFrom(null))
        .isEqualTo("store or fleet, client_ip and admin sections");
  }

  @Test
  void aPublishedFileKeepsTheLocalStoreFleetAndRulesFrom() {
    Config local = parse("rules_from: redis\n" + REDIS + "fleet: { size: 4 }\nrules: []\n");
    Config published =
        parse(
            "enabled: false\nstore: { type: memory, max_keys: 5 }\n"
                + RULES
                + "metrics: { top_clients: 3 }\n");
    Config inForce = published.publishedUnder(local);
    assertThat(inForce.store()).isEqualTo(local.store());
    assertThat(inForce.rulesFromRedis()).isTrue();
    assertThat(inForce.rules().rules()).isSameAs(published.rules().rules());
    assertThat(inForce.enabled()).isFalse();
    assertThat(inForce.metrics().topClients).isEqualTo(3);
  }

  @Test
  void onlySectionsOtherThanTheLocalOnesDiffer() {
    String admin = "admin: { token: tok-abcdefghijklmnop }\n";
    String proxies = "client_ip: { trusted_proxies: [10.0.0.0/24] }\n";
    Config local = parse("rules_from: redis\n" + REDIS + proxies + admin + "rules: []\n");
    assertThat(parse(REDIS + proxies + admin + RULES).localSectionsDifferingFrom(local))
        .as("the same")
        .isNull();
    assertThat(parse(proxies + admin + RULES).localSectionsDifferingFrom(local))
        .as("no store given")
        .isNull();
    assertThat(
            parse(REDIS + "fleet: { size: 2 }\n" + proxies + admin + RULES)
                .localSectionsDifferingFrom(local))
        .isEqualTo("store or fleet sections");
    assertThat(
            parse("store: { type: memory }\n" + proxies + admin + RULES)
                .localSectionsDifferingFrom(local))
        .isEqualTo("store or fleet sections");
    assertThat(parse("client_ip: { trusted_proxies: [10.0.0.0/8] }\n" + admin + RULES)
            .localSectionsDifferingFrom(local))
        .isEqualTo("client_ip sections");
    assertThat(parse(proxies + "admin: { token: other-token-0123456789 }\n" + RULES)
            .localSectionsDifferingFrom(local))
        .isEqualTo("admin sections");
  }

  /**
   * Issue 28: every published version without an admin section logged that it had admin sections
   * other than the local file's.
   */
  @Test
  void aSectionThePublishedFileLeavesOutDiffersFromNothing() {
    String admin = "admin: { token: tok-abcdefghijklmnop }\n";
    String proxies = "client_ip: { trusted_proxies: [10.0.0.0/24] }\n";
    Config local = parse("rules_from: redis\n" + REDIS + proxies + admin + "rules: []\n");
    assertThat(parse(RULES).localSectionsDifferingFrom(local)).isNull();
    assertThat(parse(proxies + RULES).localSectionsDifferingFrom(local)).isNull();
    assertThat(parse(admin + RULES).localSectionsDifferingFrom(local)).isNull();
  }

  @Test
  void aPublishedFileCannotOpenTheEndpointNorNameProxies() {
    String token = "local-token-0123456789";
    Config local =
        parse(
            "rules_from: redis\n"
                + REDIS
                + "client_ip: { trusted_proxies: [10.0.0.0/24] }\n"
                + "admin: { allow: [10.9.0.0/16], token: "
                + token
                + " }\nrules: []\n");
    Config published =
        parse(
            "client_ip: { trusted_proxies: [\"0.0.0.0/0\"], header: Forwarded }\n"
                + "admin: { allow: [\"0.0.0.0/0\"], token: pushed-token-0123456789 }\n"
                + RULES);
    Config inForce = published.publishedUnder(local);
    assertThat(inForce.admin()).isEqualTo(local.admin());
    assertThat(inForce.rules().clientIp()).isEqualTo(local.rules().clientIp());
    assertThat(inForce.rules().rules()).isSameAs(published.rules().rules());
    TestRequest spoofed =
        TestRequest.get("/a").from("203.0.113.9").header("Forwarded", "for=10.9.0.1");
    assertThat(inForce.rules().clientIp().resolve(spoofed)).isEqualTo("203.0.113.9");

    Config noEndpoint = parse("rules_from: redis\n" + REDIS + "rules: []\n");
    assertThat(published.publishedUnder(noEndpoint).admin())
        .as("no admin section here, no endpoint, whatever is pushed")
        .isNull();
  }
}
