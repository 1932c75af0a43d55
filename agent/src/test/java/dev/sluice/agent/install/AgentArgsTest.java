package dev.sluice.agent.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class AgentArgsTest {
  private static String noFile(String argument) {
    return "the agent argument \""
        + argument
        + "\" names no file; ignored (expected config=<path to ratelimit.yaml> or"
        + " on_invalid_config=serve|refuse_start)";
  }

  private static String unknown(String pair) {
    return "unknown agent argument \""
        + pair
        + "\" ignored (expected config=<path to ratelimit.yaml> or"
        + " on_invalid_config=serve|refuse_start)";
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "   "})
  void noArgumentMeansTheUsualPlacesAndNoProblem(String text) {
    AgentArgs args = AgentArgs.parse(text);
    assertThat(args.config()).isNull();
    assertThat(args.problems()).isEmpty();
  }

  @Test
  void configNamesTheFile() {
    AgentArgs args = AgentArgs.parse("config=/etc/sluice/ratelimit.yaml");
    assertThat(args.config()).isEqualTo("/etc/sluice/ratelimit.yaml");
    assertThat(args.problems()).isEmpty();
  }

  @Test
  void onInvalidConfigIsPassedOnBesideTheConfig() {
    AgentArgs args = AgentArgs.parse("config=/etc/ratelimit.yaml,on_invalid_config=refuse_start");
    assertThat(args.config()).isEqualTo("/etc/ratelimit.yaml");
    assertThat(args.onInvalidConfig()).isEqualTo("refuse_start");
    assertThat(args.problems()).isEmpty();
    assertThat(AgentArgs.parse("config=/etc/ratelimit.yaml").onInvalidConfig())
        .as("the usual places then")
        .isNull();
  }

  @Test
  void spacesAroundKeyAndValueAreTrimmed() {
    AgentArgs args = AgentArgs.parse("  config =  /etc/ratelimit.yaml  ");
    assertThat(args.config()).isEqualTo("/etc/ratelimit.yaml");
    assertThat(args.problems()).isEmpty();
  }

  @Test
  void aPathMayContainAnEqualsSign() {
    assertThat(AgentArgs.parse("config=/opt/a=b/ratelimit.yaml").config())
        .isEqualTo("/opt/a=b/ratelimit.yaml");
  }

  @Test
  void anUnknownKeyIsReportedAndSkipped() {
    AgentArgs args = AgentArgs.parse("verbose=true");
    assertThat(args.config()).isNull();
    assertThat(args.problems()).containsExactly(unknown("verbose=true"));
  }

  @Test
  void aKeyWithoutAValueIsReported() {
    assertThat(AgentArgs.parse("verbose").problems()).containsExactly(unknown("verbose"));
    assertThat(AgentArgs.parse("config").problems()).containsExactly(noFile("config"));
  }

  @Test
  void anEmptyConfigIsReportedAndLeavesTheUsualPlaces() {
    AgentArgs args = AgentArgs.parse("config=");
    assertThat(args.config()).isNull();
    assertThat(args.problems()).containsExactly(noFile("config="));
    assertThat(AgentArgs.parse("config=   ").problems()).containsExactly(noFile("config="));
  }

  @Test
  void severalPairsAreEachReadAndEveryProblemListedInOrder() {
    AgentArgs args = AgentArgs.parse("debug=1, config=/etc/ratelimit.yaml ,mode");
    assertThat(args.config()).isEqualTo("/etc/ratelimit.yaml");
    assertThat(args.problems()).containsExactly(unknown("debug=1"), unknown("mode"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"=", ",", ",,", "=,=", "config==", "\u0000", "config=a,config="})
  void malformedTextNeverThrows(String text) {
    AgentArgs args = AgentArgs.parse(text);
    assertThat(args.problems()).doesNotContainNull();
  }

  @Test
  void theProblemsCannotBeChanged() {
    AgentArgs args = AgentArgs.parse("verbose");
    assertThatThrownBy(() -> args.problems().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
