package dev.sluice.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OptionsTest {
  @Test
  void argumentsAndOptionsInAnyOrderEitherSpelling() {
    Options options =
        Options.parse(
            new String[] {"--redis", "redis://r", "a.yaml", "--message=two words"},
            "redis",
            "message");
    assertThat(options.positional()).containsExactly("a.yaml");
    assertThat(options.get("redis")).isEqualTo("redis://r");
    assertThat(options.get("message")).isEqualTo("two words");
    assertThat(options.get("cluster")).isNull();
  }

  @Test
  void mistakesAreNamed() {
    assertThatThrownBy(() -> Options.parse(new String[] {"--redsi", "x"}, "redis"))
        .hasMessage("unknown option --redsi");
    assertThatThrownBy(() -> Options.parse(new String[] {"a", "--redis"}, "redis"))
        .hasMessage("--redis needs a value");
    assertThatThrownBy(() -> Options.parse(new String[] {"--redis=a", "--redis", "b"}, "redis"))
        .hasMessage("--redis is given twice");
  }
}
