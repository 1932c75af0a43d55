package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
    "1ms,    1000",
    "500ms,  500000",
    "1s,     1000000",
    "90s,    90000000",
    "1m,     60000000",
    "1h,     3600000000",
    "1d,     86400000000",
    "365d,   31536000000000",
    "8760h,  31536000000000",
    "' 1s ', 1000000",
    "01s,    1000000"
  })
  void parsesDurationsToMicros(String text, long micros) {
    assertThat(Durations.parseMicros(text)).isEqualTo(micros);
  }

  @ParameterizedTest
  @CsvSource({
    "1000,           1ms",
    "500000,         500ms",
    "1500000,        1500ms",
    "90000000,       90s",
    "60000000,       1m",
    "5400000000,     90m",
    "86400000000,    1d",
    "31536000000000, 365d"
  })
  void formatsMicrosInTheLargestUnitThatDividesThem(long micros, String text) {
    assertThat(Durations.format(micros)).isEqualTo(text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "5x",
        "0s",
        "0ms",
        "1y",
        "500us",
        "1us",
        "-1m",
        "+1m",
        "60",
        "1.5s",
        "1M",
        "1S",
        "s",
        "1 s",
        "1s1m",
        "366d",
        "8761h",
        "1000000000ms",
        "\uFF11s",
        // count × unit overflows a long; it must not wrap into a plausible window.
        "213503983d",
        "999999999d",
        "999999999h"
      })
  void rejectsWhatIsNoDurationBetweenOneMillisecondAndAYear(String text) {
    assertThat(Durations.parseMicros(text)).isEqualTo(-1);
  }
}
