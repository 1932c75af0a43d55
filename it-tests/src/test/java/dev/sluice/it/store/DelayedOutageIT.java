package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.core.Decision;
import dev.sluice.core.TestRequest;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.store.Clock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fail_open delayed rule with Redis killed: this JVM's share (20/s ÷ a fleet of 4 = one slot per
 * 200 ms) still spaces a burst into slots up to max_wait rather than letting it through at once.
 */
class DelayedOutageIT extends WithOwnRedisProcess {

  @TempDir Path dir;

  private LiveLimiter limiter() throws Exception {
    String yaml =
        """
        store:
          type: redis
          key_prefix: delayed-outage%d
          redis: { url: "%s", timeout: 50ms }
        fleet: { size: 4 }
        rules:
          - { id: pay, match: { path: /pay }, key: ip, limit: 20, window: 1s,
              algorithm: token_bucket, delay: { max_wait: 2s } }
        """
            .formatted(ProcessHandle.current().pid(), redis.uri());
    Path file = Files.writeString(dir.resolve("ratelimit.yaml"), yaml, StandardCharsets.UTF_8);
    return LiveLimiter.manual(ConfigSource.of(file.toString(), null), Clock.SYSTEM);
  }

  private static Decision pay(LiveLimiter live, String client) {
    return live.limiter().decide(TestRequest.get("/pay").from(client));
  }

  @Test
  void aBurstIsSpacedAtThisJvmsShareOfTheRateUpToMaxWait() throws Exception {
    try (LiveLimiter live = limiter()) {
      assertThat(pay(live, "10.0.0.1").permit(0).decidedLocally()).isFalse();
      redis.kill();
      try {
        // The breaker opens after the first calls time out: other clients pay for that.
        for (int i = 0; i < 2 * Outage.WARMUP; i++) {
          pay(live, "10.0.1." + i);
        }
        long began = System.nanoTime();
        List<Long> waits = new ArrayList<>();
        int denied = 0;
        for (int i = 0; i < 15; i++) {
          Decision d = pay(live, "10.0.0.2");
          assertThat(d.permit(0).decidedLocally()).as("decided locally").isTrue();
          if (d.allowed()) {
            waits.add(d.waitMicros());
          } else {
            denied++;
          }
        }
        long micros = (System.nanoTime() - began) / 1_000;
        System.out.printf(
            "DelayedOutageIT: waits %s µs, %d denied, in %d µs%n", waits, denied, micros);
        assertThat(waits.get(0)).as("the first passes at once").isZero();
        // In microseconds: each wait is its slot less the instant it was decided at, so a wait
        // truncated to milliseconds could be 1 ms short of the spacing however fast the loop.
        for (int k = 1; k < waits.size(); k++) {
          assertThat(waits.get(k) - waits.get(k - 1))
              .as("slot %d is 200 ms after the one before, less the time between: %s", k, waits)
              .isBetween(200_000 - micros, 200_000L);
        }
        assertThat(waits).allSatisfy(w -> assertThat(w).isBetween(0L, 2_000_000L));
        assertThat(waits.size()).isBetween(11, 11 + (int) (micros / 200_000) + 1);
        assertThat(denied).as("beyond max_wait: denied").isPositive();
      } finally {
        redis.restart();
      }
    }
  }
}
