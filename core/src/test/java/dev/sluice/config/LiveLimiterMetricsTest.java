package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import dev.sluice.metrics.ConfigStatus;
import dev.sluice.metrics.LimitedClient;
import dev.sluice.metrics.RuleStats;
import dev.sluice.store.ManualClock;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveLimiterMetricsTest {
  private static final String RULES =
      "rules:\n  - { id: hello, match: { path: /hello }, key: ip, limit: 1, window: 1m }\n";

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  private Path write(String yaml) throws Exception {
    Path next = dir.resolve("next.yaml");
    Files.write(next, yaml.getBytes(StandardCharsets.UTF_8));
    return Files.move(
        next,
        dir.resolve("ratelimit.yaml"),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  private LiveLimiter manual(Path file) {
    return LiveLimiter.manual(ConfigSource.of(file.toString(), null), clock);
  }

  private static void hello(LiveLimiter live, String ip, int times) {
    for (int i = 0; i < times; i++) {
      live.limiter().decide(TestRequest.get("/hello").from(ip));
    }
  }

  @Test
  void reloadsAreReportedWithTheVersionInForce() throws Exception {
    try (LiveLimiter live = manual(write(RULES))) {
      ConfigStatus first = live.metrics().config();
      assertThat(first.lastReload()).isEqualTo(ConfigStatus.Reload.APPLIED);
      assertThat(first.version()).matches("[0-9a-f]{12}");
      assertThat(first.rules()).isEqualTo(1);

      clock.advanceSeconds(1);
      live.reload();
      assertThat(live.metrics().config().lastReload()).isEqualTo(ConfigStatus.Reload.UNCHANGED);
      assertThat(live.metrics().config().lastReloadAtMillis()).isEqualTo(1_800_000_001_000L);

      write(RULES.replace("limit: 1", "limit: 0"));
      live.reload();
      ConfigStatus rejected = live.metrics().config();
      assertThat(rejected.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
      assertThat(rejected.problem()).contains("rules[0] (hello).limit");
      assertThat(rejected.version()).as("the last good rules stay").isEqualTo(first.version());

      write(RULES);
      live.reload();
      assertThat(live.metrics().config().lastReload())
          .as("back to the file in force")
          .isEqualTo(ConfigStatus.Reload.UNCHANGED);

      write(RULES.replace("limit: 1", "limit: 2"));
      live.reload();
      assertThat(live.metrics().config().version()).isNotEqualTo(first.version());
      assertThat(live.metrics().config().appliedAtMillis()).isEqualTo(1_800_000_001_000L);
    }
  }

  @Test
  void noFileIsAFailingReload() {
    try (LiveLimiter live = manual(dir.resolve("missing.yaml"))) {
      ConfigStatus config = live.metrics().config();
      assertThat(config.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
      assertThat(config.problem()).contains("found no config");
      assertThat(config.version()).isNull();
    }
  }

  @Test
  void ruleCountsLastThroughAReloadAndTheMetricsSectionApplies() throws Exception {
    try (LiveLimiter live = manual(write(RULES))) {
      hello(live, "10.0.0.1", 3);
      write("metrics: { top_clients: 1, raw_identities: true }\n" + RULES);
      live.reload();
      hello(live, "10.0.0.1", 1);
      hello(live, "10.0.0.2", 3);

      RuleStats hello = live.metrics().rules().get(0);
      assertThat(hello.allowed()).isEqualTo(2);
      assertThat(hello.denied()).isEqualTo(5);
      assertThat(
              hello.topLimited().stream()
                  .map(LimitedClient::getClient)
                  .collect(Collectors.toList()))
          .as("a list of one, started over at its new size, raw")
          .containsExactly("ip=10.0.0.2");
    }
  }

  @Test
  void aStartedLimiterShowsInJmxUntilClosed() throws Exception {
    ObjectName config = new ObjectName("dev.sluice:type=Config,context=live-test");
    ObjectName rule = new ObjectName("dev.sluice:type=Rule,context=live-test,name=hello");
    try (LiveLimiter live =
        LiveLimiter.start(ConfigSource.of(write(RULES).toString(), null), "live-test")) {
      assertThat(ManagementFactory.getPlatformMBeanServer().getAttribute(config, "RulesVersion"))
          .isEqualTo(live.metrics().config().version());
      assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(rule)).isTrue();
    }
    assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(config)).isFalse();
    assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(rule)).isFalse();
  }
}
