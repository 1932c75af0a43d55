package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConfigErrorTest {

  @Test
  void toStringIsFileLineColumnFieldMessage() {
    ConfigError error = new ConfigError("ratelimit.yaml", 12, 5, "rules[1].limit", "too big");
    assertThat(error).hasToString("ratelimit.yaml:12:5: rules[1].limit: too big");
  }

  @Test
  void toStringLeavesOutAnEmptyField() {
    assertThat(new ConfigError("f.yaml", 3, 1, "", "not valid YAML: x"))
        .hasToString("f.yaml:3:1: not valid YAML: x");
  }

  @Test
  void toStringLeavesOutAnUnknownPlace() {
    assertThat(new ConfigError("f.yaml", 0, 0, "", "the file is empty"))
        .hasToString("f.yaml: the file is empty");
    assertThat(new ConfigError("f.yaml", 0, 0, "store", "bad")).hasToString("f.yaml: store: bad");
  }

  @Test
  void accessorsReturnWhatWasGiven() {
    ConfigError error = new ConfigError("f", 7, 9, "a.b", "m");
    assertThat(error.file()).isEqualTo("f");
    assertThat(error.line()).isEqualTo(7);
    assertThat(error.column()).isEqualTo(9);
    assertThat(error.field()).isEqualTo("a.b");
    assertThat(error.message()).isEqualTo("m");
  }
}
