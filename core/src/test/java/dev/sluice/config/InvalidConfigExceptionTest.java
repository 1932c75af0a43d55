package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InvalidConfigExceptionTest {
  private final ConfigError first = new ConfigError("f", 1, 2, "a", "one");
  private final ConfigError second = new ConfigError("f", 3, 4, "", "two");

  @Test
  void messageHasOneErrorPerLine() {
    assertThat(new InvalidConfigException(List.of(first, second)))
        .hasMessage("f:1:2: a: one\nf:3:4: two");
  }

  @Test
  void errorsAreAnUnmodifiableCopy() {
    List<ConfigError> errors = new ArrayList<>(List.of(first));
    InvalidConfigException e = new InvalidConfigException(errors);
    errors.add(second);
    assertThat(e.errors()).containsExactly(first);
    assertThatThrownBy(() -> e.errors().clear()).isInstanceOf(UnsupportedOperationException.class);
  }
}
