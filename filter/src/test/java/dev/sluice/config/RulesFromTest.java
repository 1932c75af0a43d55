package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static org.assertj.core.api.Assertions.assertThat;

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
  void theStoreIsGivenByAStoreOrFleetSection() {
    assertThat(parse(RULES).storeGiven()).isFalse();
    assertThat(parse("store: { type: memory }\n" + RULES).storeGiven()).isTrue();
    assertThat(parse("fleet: { size: 3 }\n" + RULES).storeGiven()).isTrue();
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
    assertThat(inForce.rules()).isSameAs(published.rules());
    assertThat(inForce.enabled()).isFalse();
    assertThat(inForce.metrics().topClients).isEqualTo(3);
  }

  @Test
  void onlyAStoreSectionGivenAndOtherThanTheLocalOneDiffers() {
    Config local = parse("rules_from: redis\n" + REDIS + "rules: []\n");
    assertThat(parse(RULES).storeDiffersFrom(local)).as("none given").isFalse();
    assertThat(parse(REDIS + RULES).storeDiffersFrom(local)).as("the same").isFalse();
    assertThat(parse(REDIS + "fleet: { size: 2 }\n" + RULES).storeDiffersFrom(local)).isTrue();
    assertThat(parse("store: { type: memory }\n" + RULES).storeDiffersFrom(local)).isTrue();
  }
}
