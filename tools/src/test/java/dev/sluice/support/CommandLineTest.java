package dev.sluice.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommandLineTest {
  @Test
  void argumentsAndOptionsInAnyOrderEitherSpelling() {
    CommandLine options =
        CommandLine.parse(
            new String[] {"--redis", "redis://r", "a.yaml", "--json", "--message=two words"},
            List.of("json"),
            "redis",
            "message");
    assertThat(options.positional()).containsExactly("a.yaml");
    assertThat(options.get("redis")).isEqualTo("redis://r");
    assertThat(options.get("message")).isEqualTo("two words");
    assertThat(options.get("cluster")).isNull();
    assertThat(options.has("json")).isTrue();
    assertThat(options.has("jsn")).isFalse();
  }

  @Test
  void mistakesAreNamed() {
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--redsi", "x"}, List.of(), "redis"))
        .hasMessage("unknown option --redsi, did you mean --redis?");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--zzz"}, List.of("json"), "redis"))
        .hasMessage("unknown option --zzz");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"a", "--redis"}, List.of(), "redis"))
        .hasMessage("--redis needs a value");
    assertThatThrownBy(
            () -> CommandLine.parse(new String[] {"--redis=a", "--redis", "b"}, List.of(), "redis"))
        .hasMessage("--redis is given twice");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"--json", "--json"}, List.of("json")))
        .hasMessage("--json is given twice");
  }

  @Test
  void aShortOptionIsNamedByItsLongName() {
    assertThatThrownBy(
            () ->
                CommandLine.parse(
                    new String[] {"a.yaml", "-m", "x"}, List.of(), "redis", "message"))
        .hasMessage("unknown option -m: options are spelt out, did you mean --message?");
    assertThatThrownBy(() -> CommandLine.parse(new String[] {"-json"}, List.of("json")))
        .hasMessage("unknown option -json: options are spelt out, did you mean --json?");
  }

  @Test
  void aDashAloneOrANegativeNumberIsAnArgument() {
    assertThat(CommandLine.parse(new String[] {"-", "-3"}, List.of()).positional())
        .containsExactly("-", "-3");
  }
}
