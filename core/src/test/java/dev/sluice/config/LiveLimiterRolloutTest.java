package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Decision;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rollout.shadow_for: new and changed rules run in shadow, then enforce by themselves. */
class LiveLimiterRolloutTest {
  private static final String ROLLOUT = "rollout: { shadow_for: 10m }\n";
  private static final String OLD =
      "  - { id: old, match: { path: /old }, key: ip, limit: 1, window: 1h }\n";
  private static final String NEW =
      "  - { id: new, match: { path: /new }, key: ip, limit: 1, window: 1h }\n";
  private static final long START_MILLIS = 1_800_000_000_000L;

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(START_MILLIS * 1000);

  private Path write(String yaml) throws Exception {
    Path next = dir.resolve("next.yaml");
    Files.write(next, yaml.getBytes(StandardCharsets.UTF_8));
    return Files.move(
        next,
        dir.resolve("ratelimit.yaml"),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  private LiveLimiter start(String yaml) throws Exception {
    return LiveLimiter.manual(ConfigSource.of(write(yaml).toString(), null), clock);
  }

  /** Whether the second request of a fresh client to {@code path} is denied (limits are 1). */
  private static boolean secondDenied(LiveLimiter live, String path, String client) {
    live.limiter().decide(TestRequest.get(path).from(client));
    Decision second = live.limiter().decide(TestRequest.get(path).from(client));
    return !second.allowed();
  }

  @Test
  void theFileAJvmStartsWithEnforcesAtOnce() throws Exception {
    try (LiveLimiter live = start(ROLLOUT + "rules:\n" + OLD)) {
      assertThat(secondDenied(live, "/old", "10.0.0.1")).isTrue();
      assertThat(live.metrics().trials()).isEmpty();
    }
  }

  @Test
  void anAddedRuleRunsInShadowThenEnforcesByItself() throws Exception {
    try (LiveLimiter live = start(ROLLOUT + "rules:\n" + OLD)) {
      clock.advanceSeconds(1);
      write(ROLLOUT + "rules:\n" + OLD + NEW);
      live.reload();
      long enforcesAt = START_MILLIS + 1_000 + 600_000;
      assertThat(live.metrics().trials()).isEqualTo(Map.of("new", enforcesAt));
      assertThat(live.metrics().prometheusText())
          .contains("sluice_rule_enforces_at_timestamp_seconds{rule=\"new\"} 1800000601")
          .contains("sluice_rule_shadow{rule=\"new\"} 1")
          .contains("sluice_rule_shadow{rule=\"old\"} 0");
      assertThat(secondDenied(live, "/new", "10.0.0.1")).as("on trial").isFalse();
      assertThat(live.metrics().rules().get(1).shadowDenied()).isEqualTo(1);
      assertThat(secondDenied(live, "/old", "10.0.0.1")).as("unchanged").isTrue();

      clock.advance(600 * SECOND - 1);
      live.reload();
      assertThat(secondDenied(live, "/new", "10.0.0.2")).as("a microsecond early").isFalse();
      clock.advance(1);
      live.reload();
      assertThat(live.metrics().trials()).isEmpty();
      assertThat(live.metrics().prometheusText()).contains("sluice_rule_shadow{rule=\"new\"} 0");
      assertThat(secondDenied(live, "/new", "10.0.0.3")).as("trial over").isTrue();
    }
  }

  @Test
  void aChangedLimitIsOnTrialButAModeChangeAloneIsNot() throws Exception {
    String trial = NEW.replace("window: 1h", "window: 1h, shadow: true");
    try (LiveLimiter live = start(ROLLOUT + "rules:\n" + OLD + trial)) {
      write(ROLLOUT + "rules:\n" + OLD.replace("limit: 1,", "limit: 2,") + NEW);
      live.reload();
      assertThat(live.metrics().trials().keySet()).containsExactly("old");
      assertThat(secondDenied(live, "/new", "10.0.0.1")).as("promoted by hand").isTrue();
    }
  }

  @Test
  void aRuleOnTrialKeepsItsEndThroughReloadsThatLeaveItAlone() throws Exception {
    try (LiveLimiter live = start(ROLLOUT + "rules:\n" + OLD)) {
      write(ROLLOUT + "rules:\n" + OLD + NEW);
      live.reload();
      clock.advanceSeconds(300);
      write(ROLLOUT + "rules:\n" + NEW + OLD);
      live.reload();
      assertThat(live.metrics().trials()).isEqualTo(Map.of("new", START_MILLIS + 600_000));

      write(ROLLOUT + "rules:\n" + OLD + NEW.replace("limit: 1,", "limit: 3,"));
      live.reload();
      assertThat(live.metrics().trials())
          .as("changed again: a trial of its own")
          .isEqualTo(Map.of("new", START_MILLIS + 900_000));
    }
  }

  @Test
  void withoutTheSectionEveryReloadEnforcesAtOnce() throws Exception {
    try (LiveLimiter live = start("rules:\n" + OLD)) {
      write("rules:\n" + OLD + NEW);
      live.reload();
      assertThat(live.metrics().trials()).isEmpty();
      assertThat(secondDenied(live, "/new", "10.0.0.1")).isTrue();
    }
  }
}
