package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OnInvalidConfigTest {
  private static final Map<String, String> REFUSING_ENV =
      Map.of(OnInvalidConfig.ENVIRONMENT, "refuse_start");

  private String savedProperty;

  @BeforeEach
  void saveProperty() {
    savedProperty = System.getProperty(OnInvalidConfig.PROPERTY);
    System.clearProperty(OnInvalidConfig.PROPERTY);
  }

  @AfterEach
  void restoreProperty() {
    if (savedProperty == null) {
      System.clearProperty(OnInvalidConfig.PROPERTY);
    } else {
      System.setProperty(OnInvalidConfig.PROPERTY, savedProperty);
    }
  }

  @Test
  void servingIsTheDefault() {
    assertThat(OnInvalidConfig.locate(null, Map.of())).isEqualTo(OnInvalidConfig.SERVE);
    assertThat(OnInvalidConfig.locate(" ", Map.of(OnInvalidConfig.ENVIRONMENT, "")))
        .isEqualTo(OnInvalidConfig.SERVE);
  }

  @Test
  void theInitParamComesFirstThenThePropertyThenTheEnvironment() {
    assertThat(OnInvalidConfig.locate(null, REFUSING_ENV)).isEqualTo(OnInvalidConfig.REFUSE_START);
    System.setProperty(OnInvalidConfig.PROPERTY, "serve");
    assertThat(OnInvalidConfig.locate(null, REFUSING_ENV)).isEqualTo(OnInvalidConfig.SERVE);
    assertThat(OnInvalidConfig.locate(" REFUSE_START ", REFUSING_ENV))
        .isEqualTo(OnInvalidConfig.REFUSE_START);
  }

  @Test
  void anUnknownValueIsLoggedWithTheNearestAndServes() {
    try (LogCapture log = LogCapture.of("dev.sluice.config")) {
      assertThat(OnInvalidConfig.locate("refuse-start", Map.of())).isEqualTo(OnInvalidConfig.SERVE);
      assertThat(log.messages())
          .containsExactly(
              "Sluice: on_invalid_config must be serve or refuse_start, got \"refuse-start\","
                  + " did you mean refuse_start?; serving");
    }
  }

  /** The agent reads this in premain, where java.util.logging must not be touched. */
  @Test
  void anUnknownValueCanBeToldElsewhereThanJavaUtilLogging() {
    List<String> told = new ArrayList<>();
    try (LogCapture log = LogCapture.of("dev.sluice.config")) {
      assertThat(OnInvalidConfig.locate("refuse_strat", Map.of(), told::add))
          .isEqualTo(OnInvalidConfig.SERVE);
      assertThat(log.messages()).isEmpty();
    }
    assertThat(told)
        .containsExactly(
            "Sluice: on_invalid_config must be serve or refuse_start, got \"refuse_strat\","
                + " did you mean refuse_start?; serving");
  }
}
