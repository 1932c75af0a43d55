package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static dev.sluice.config.ConfigTesting.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Delay;
import dev.sluice.core.Rule;
import org.junit.jupiter.api.Test;

class DelayReaderTest {
  private static final String HEAD =
      "rules:\n"
          + "  - id: payments\n"
          + "    match: { path: /api/pay, methods: [POST] }\n"
          + "    key: api_key\n"
          + "    limit: 10\n"
          + "    window: 1s\n";

  @Test
  void theIssuesExampleReadsAsAQueueAtTheRate() {
    Rule pay =
        rule(
            parse(HEAD + "    algorithm: token_bucket\n    delay: { max_wait: 2s }\n"), "payments");
    Delay delay = pay.delay();
    assertThat(delay.maxWaitMicros()).isEqualTo(2_000_000L);
    assertThat(delay.immediate()).isZero();
    assertThat(delay.maxWaiting()).isEqualTo(Delay.DEFAULT_MAX_WAITING);
    assertThat(pay.quota().isDelayed()).isTrue();
    assertThat(pay.quota().toleranceMicros()).isEqualTo(100_000L + 2_000_000L);
  }

  @Test
  void immediateAndMaxWaitingAreRead() {
    Rule pay =
        rule(
            parse(
                HEAD
                    + "    algorithm: token_bucket\n"
                    + "    tiers: { gold: 100 }\n"
                    + "    delay: { max_wait: 500ms, immediate: 3, max_waiting: 7 }\n"),
            "payments");
    assertThat(pay.delay().immediate()).isEqualTo(3);
    assertThat(pay.delay().maxWaiting()).isEqualTo(7);
    assertThat(pay.quota().toleranceMicros()).isEqualTo(4 * 100_000L + 500_000L);
    assertThat(pay.tierQuotas().get("gold").toleranceMicros()).isEqualTo(4 * 10_000L + 500_000L);
  }

  @Test
  void aRuleWithoutDelayHasNone() {
    Rule pay = rule(parse(HEAD + "    algorithm: token_bucket\n"), "payments");
    assertThat(pay.delay()).isNull();
    assertThat(pay.quota().isDelayed()).isFalse();
  }

  @Test
  void delayNeedsATokenBucket() {
    ConfigError e = onlyError(HEAD + "    delay: { max_wait: 2s }\n");
    assertThat(e.line()).isEqualTo(7);
    assertThat(e.field()).isEqualTo("rules[0] (payments).delay");
    assertThat(e.message()).contains("token_bucket only");
  }

  @Test
  void delayAndBurstTogetherAreRefusedAtTheBurst() {
    assertThat(
            places(
                HEAD + "    algorithm: token_bucket\n    burst: 5\n    delay: { max_wait: 2s }\n"))
        .containsExactly("8 rules[0] (payments).burst");
  }

  @Test
  void maxWaitIsRequiredAndTyposAreNamed() {
    assertThat(
            places(
                HEAD
                    + "    algorithm: token_bucket\n"
                    + "    delay: { max_wiat: 2s, immediate: -1, max_waiting: 0 }\n"))
        .contains(
            "8 rules[0] (payments).delay.max_wiat",
            "8 rules[0] (payments).delay.max_wait",
            "8 rules[0] (payments).delay.immediate",
            "8 rules[0] (payments).delay.max_waiting");
  }

  @Test
  void maxWaitAboveAMinuteIsRefusedAtItsLine() {
    ConfigError e =
        onlyError(HEAD + "    algorithm: token_bucket\n    delay: { max_wait: 365d }\n");
    assertThat(e.line()).isEqualTo(8);
    assertThat(e.field()).isEqualTo("rules[0] (payments).delay.max_wait");
    assertThat(e.message()).contains("at most 60s");
    String aMinute = HEAD + "    algorithm: token_bucket\n    delay: { max_wait: 60s }\n";
    assertThat(rule(parse(aMinute), "payments").delay().maxWaitMicros())
        .as("a minute is the most, and allowed")
        .isEqualTo(Delay.MAX_WAIT_MICROS);
  }
}
