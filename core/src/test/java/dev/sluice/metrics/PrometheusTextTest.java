package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {
  @Test
  void labelValuesEscapeBackslashQuoteAndNewline() {
    String text =
        new PrometheusText()
            .family("x_total", "counter", "X.")
            .sample("x_total", 3, "shard", "a\\b\"c\nd", "rule", "é")
            .text();
    assertThat(text).endsWith("x_total{shard=\"a\\\\b\\\"c\\nd\",rule=\"é\"} 3\n");
  }

  @Test
  void helpEscapesBackslashAndNewlineButNotQuotes() {
    String text = new PrometheusText().family("x", "gauge", "a \"b\" c\\d\ne").text();
    assertThat(text).isEqualTo("# HELP x a \"b\" c\\\\d\\ne\n# TYPE x gauge\n");
  }

  @Test
  void samplesWithoutLabelsAndFractions() {
    String text =
        new PrometheusText()
            .family("y", "gauge", "Y.")
            .sample("y", 2.0)
            .sample("y", 0.25, "quantile", "0.5")
            .text();
    assertThat(text).endsWith("y 2\ny{quantile=\"0.5\"} 0.25\n");
  }
}
