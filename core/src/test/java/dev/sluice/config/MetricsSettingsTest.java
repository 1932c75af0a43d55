package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.Metrics;
import org.junit.jupiter.api.Test;

class MetricsSettingsTest {
  private static final String RULES = "rules: []\n";

  @Test
  void withoutTheSectionTenClientsAreListedHashed() {
    MetricsSettings settings = parse(RULES).metrics();
    assertThat(settings.topClients).isEqualTo(Metrics.DEFAULT_TOP_CLIENTS).isEqualTo(10);
    assertThat(settings.rawIdentities).isFalse();
  }

  @Test
  void readsTheListSizeAndTheOptInToRawIdentities() {
    MetricsSettings settings =
        parse("metrics: { top_clients: 25, raw_identities: true }\n" + RULES).metrics();
    assertThat(settings.topClients).isEqualTo(25);
    assertThat(settings.rawIdentities).isTrue();
  }

  @Test
  void aLongListIsRefused() {
    ConfigError error = onlyError("metrics:\n  top_clients: 101\n" + RULES);
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.field()).isEqualTo("metrics.top_clients");
    assertThat(error.message()).contains("from 1 to 100");
  }

  @Test
  void anUnknownFieldIsRefused() {
    assertThat(onlyError("metrics: { raw_identity: true }\n" + RULES).field())
        .isEqualTo("metrics.raw_identity");
  }
}
