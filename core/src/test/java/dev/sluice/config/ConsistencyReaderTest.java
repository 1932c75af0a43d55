package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Consistency;
import org.junit.jupiter.api.Test;

class ConsistencyReaderTest {
  private static final String REDIS = "store: { type: redis, redis: { url: redis://127.0.0.1 }";
  private static final String RULES =
      "rules:\n"
          + "  - { id: a, match: { path: /a }, key: ip, limit: 100, window: 1s }\n"
          + "  - { id: b, match: { path: /b }, key: ip, limit: 100, window: 1s,"
          + " consistency: exact }\n";

  @Test
  void everyRuleIsExactUnlessToldOtherwise() {
    Config config = parse(RULES);
    assertThat(rule(config, "a").consistency()).isEqualTo(Consistency.EXACT);
    assertThat(rule(config, "b").consistency()).isEqualTo(Consistency.EXACT);
  }

  @Test
  void aRuleSaysLocalFirstWithItsSyncOrTheDefault() {
    Config config =
        parse(
            "rules:\n"
                + "  - { id: a, match: { path: /a }, key: ip, limit: 9, window: 1s,"
                + " consistency: local_first }\n"
                + "  - { id: b, match: { path: /b }, key: ip, limit: 9, window: 1s,"
                + " consistency: local_first, sync: 250ms }\n");
    assertThat(rule(config, "a").consistency())
        .isEqualTo(Consistency.localFirst(ConsistencyReader.DEFAULT_SYNC_MICROS));
    assertThat(rule(config, "b").consistency()).isEqualTo(Consistency.localFirst(250_000));
  }

  @Test
  void theStoreGivesTheDefaultThatDefaultsAndRulesOverride() {
    Config config =
        parse(
            REDIS
                + ", consistency: local_first, sync: 50ms }\n"
                + "defaults: { sync: 200ms }\n"
                + RULES);
    assertThat(rule(config, "a").consistency()).isEqualTo(Consistency.localFirst(200_000));
    assertThat(rule(config, "b").consistency()).isEqualTo(Consistency.EXACT);
  }

  @Test
  void theStoresSyncAppliesWhereNothingCloserSaysOne() {
    Config config = parse(REDIS + ", consistency: local_first, sync: 50ms }\n" + RULES);
    assertThat(rule(config, "a").consistency()).isEqualTo(Consistency.localFirst(50_000));
  }

  @Test
  void anUnknownConsistencyNamesTheChoices() {
    ConfigError e =
        onlyError(
            "rules:\n"
                + "  - { id: a, match: { path: /a }, key: ip, limit: 9, window: 1s,"
                + " consistency: eventual }\n");
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.toString()).contains("consistency").contains("exact, local_first");
  }

  @Test
  void aSyncOnAnExactRuleIsAnError() {
    ConfigError e =
        onlyError(
            "rules:\n"
                + "  - { id: a, match: { path: /a }, key: ip, limit: 9, window: 1s, sync: 1s }\n");
    assertThat(e.toString()).contains("sync").contains("applies to consistency: local_first only");
  }

  @Test
  void aSyncOutsideTenMillisecondsToAMinuteIsAnError() {
    ConfigError e = onlyError(REDIS + ", consistency: local_first, sync: 5ms }\n" + RULES);
    assertThat(e.toString()).contains("store.sync").contains("from 10ms to 1m");
  }

  @Test
  void aDelayedRuleSayingLocalFirstItselfIsAnError() {
    ConfigError e =
        onlyError(
            "rules:\n"
                + "  - { id: pay, match: { path: /p }, key: ip, limit: 9, window: 1s,"
                + " algorithm: token_bucket, delay: { max_wait: 1s }, consistency: local_first }\n");
    assertThat(e.toString()).contains("a delayed rule must be exact");
  }

  @Test
  void aDelayedRuleInheritingLocalFirstStaysExact() {
    Config config =
        parse(
            REDIS
                + ", consistency: local_first }\n"
                + "rules:\n"
                + "  - { id: pay, match: { path: /p }, key: ip, limit: 9, window: 1s,"
                + " algorithm: token_bucket, delay: { max_wait: 1s } }\n");
    assertThat(rule(config, "pay").consistency()).isEqualTo(Consistency.EXACT);
  }
}
