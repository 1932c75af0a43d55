package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.core.TestRequest;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.metrics.RuleStats;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a limiter on a real Redis reports: its round trips while Redis answers; its errors, open
 * breaker and each rule's local decisions (by on_error) once Redis is killed.
 */
class RedisMetricsIT extends WithOwnRedisProcess {

  @TempDir Path dir;

  private LiveLimiter limiter() throws Exception {
    String yaml =
        """
        store:
          type: redis
          key_prefix: metrics%d
          redis: { url: "%s", timeout: 50ms }
        fleet: { size: 4 }
        rules:
          - { id: open, match: { path: /open }, key: ip, limit: 100, window: 1m }
          - { id: closed, match: { path: /closed }, key: ip, limit: 100, window: 1m,
              on_error: fail_closed }
        """
            .formatted(ProcessHandle.current().pid(), redis.uri());
    Path file = Files.writeString(dir.resolve("ratelimit.yaml"), yaml, StandardCharsets.UTF_8);
    return LiveLimiter.manual(ConfigSource.of(file.toString(), null), Clock.SYSTEM);
  }

  /** The test's decisions fall in one minute, the rules' window, with seconds to spare. */
  private static void awaitAMinuteWithTimeLeft() throws InterruptedException {
    long intoTheMinute = System.currentTimeMillis() % 60_000;
    if (intoTheMinute > 50_000) {
      Thread.sleep(60_000 - intoTheMinute + 100);
    }
  }

  private static void decide(LiveLimiter live, String path, int times) {
    for (int i = 0; i < times; i++) {
      live.limiter().decide(TestRequest.get(path).from("10.0.0.1"));
    }
  }

  private static RuleStats rule(LiveLimiter live, String id) {
    return live.metrics().rules().stream()
        .filter(r -> r.ruleId().equals(id))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void roundTripsWhileRedisAnswersThenLocalDecisionsAndAnOpenBreaker() throws Exception {
    awaitAMinuteWithTimeLeft();
    try (LiveLimiter live = limiter()) {
      decide(live, "/open", 10);
      StoreStatus up = live.metrics().store();
      assertThat(up.type()).isEqualTo("redis");
      // One call a decision, and the first once more by text: a new Redis lacks the script.
      assertThat(up.allRoundTrips().count()).isBetween(1L, 11L);
      assertThat(up.commands()).isBetween(up.allRoundTrips().count(), 11L);
      assertThat(up.recentRoundTrips().quantileSeconds(0.5)).isGreaterThan(0);
      assertThat(up.errors()).isZero();
      assertThat(up.breakers()).containsValue(StoreStatus.CLOSED).hasSize(1);
      assertThat(up.fleetSize()).isEqualTo(4);
      assertThat(rule(live, "open").allowed()).isEqualTo(10);
      assertThat(rule(live, "open").decidedLocally()).isZero();
      assertThat(live.metrics().prometheusText())
          .contains("sluice_store_info{type=\"redis\"} 1")
          .containsPattern("sluice_redis_round_trip_seconds_count [1-9]");

      redis.kill();
      try {
        decide(live, "/open", 30);
        decide(live, "/closed", 30);
        StoreStatus down = live.metrics().store();
        assertThat(down.errors()).isPositive();
        assertThat(down.openBreakers()).isEqualTo(1);
        assertThat(rule(live, "open").decidedLocally()).isEqualTo(30);
        // The window Redis died in is shared from what its last answer left: 90 ÷ 4 JVMs.
        assertThat(rule(live, "open").allowed()).as("a quarter of 90 locally").isEqualTo(32);
        assertThat(rule(live, "closed").deniedLocally()).isEqualTo(30);
        assertThat(rule(live, "closed").denied()).isEqualTo(30);
        assertThat(live.metrics().prometheusText())
            .contains(
                "sluice_rule_local_decisions_total{rule=\"closed\",on_error=\"fail_closed\"} 30")
            .containsPattern("sluice_redis_breaker_open\\{shard=\"[^\"]+\"} 1");
      } finally {
        redis.restart();
      }
    }
  }
}
