package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.parse;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A rule's limit for a tier no request can be given is a warning: the file loads all the same. */
class TierReaderTest {
  private static final String RULE =
      "rules:\n  - { id: api, match: { path: /api }, key: ip, limit: 5, window: 1m,"
          + " tiers: { pro: 50 } }\n";

  private static String warnings(String yaml) {
    return parse(yaml).warnings().toString();
  }

  @Test
  void aTierWithoutKeysOrHeaderIsNeverGiven() {
    Config config = parse(RULE);
    assertThat(config.rules().rules()).as("loaded all the same").hasSize(1);
    assertThat(config.warnings())
        .extracting(ConfigError::toString)
        .containsExactly(
            "ratelimit.yaml:2:84: rules[0] (api).tiers.pro: no request is ever given tier pro: no"
                + " API key in tiers.api_keys has it, and there is no tiers.header; this limit"
                + " never applies");
  }

  @Test
  void aTierHeaderWithoutTrustedProxiesGivesNoTier() {
    assertThat(warnings(RULE + "tiers: { header: X-Plan }\n"))
        .contains(
            "tiers.pro: no request is ever given tier pro: no API key in tiers.api_keys has it, and"
                + " tiers.header is honoured only from client_ip.trusted_proxies, which lists"
                + " none; this limit never applies");
  }

  @Test
  void aTierHeaderFromTrustedProxiesMayGiveAnyTier() {
    assertThat(
            parse(
                    RULE
                        + "tiers: { header: X-Plan }\n"
                        + "client_ip: { trusted_proxies: [10.0.0.0/8] }\n")
                .warnings())
        .isEmpty();
  }

  @Test
  void aTierWithApiKeysIsGiven() {
    assertThat(parse(RULE + "tiers: { api_keys: { pro: [key-1] } }\n").warnings()).isEmpty();
  }

  @Test
  void aTierNearOneWithKeysIsLikelyATypo() {
    assertThat(warnings(RULE.replace("pro: 50", "por: 50") + "tiers: { api_keys: { pro: [k] } }\n"))
        .contains("no request is ever given tier por (did you mean pro?): ");
  }

  @Test
  void tiersInDefaultsAreWarnedOnceAtTheDefaults() {
    Config config =
        parse(
            """
            defaults: { key: ip, window: 1m, tiers: { gold: 9 } }
            rules:
              - { id: a, match: { path: /a }, limit: 5 }
              - { id: b, match: { path: /b }, limit: 5 }
            """);
    assertThat(config.warnings())
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.line()).isEqualTo(1);
              assertThat(w.field()).isEqualTo("defaults.tiers.gold");
            });
  }
}
