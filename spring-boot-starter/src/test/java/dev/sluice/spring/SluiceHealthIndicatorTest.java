package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RoundTrips;
import dev.sluice.metrics.StoreStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

class SluiceHealthIndicatorTest {
  private final Metrics metrics = new Metrics(() -> 1_800_000_000_000_000L);

  private Health health(boolean affectsOverall, Map<String, String> breakers) {
    RoundTrips roundTrips = new RoundTrips(() -> 1_800_000_000_000_000L);
    metrics.bindStore(() -> StoreStatus.redis(roundTrips, breakers, 2));
    return new SluiceHealthIndicator(metrics, affectsOverall).health();
  }

  @Test
  void aMemoryStoreIsUp() {
    Health health = new SluiceHealthIndicator(metrics, true).health();
    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).containsEntry("store", "memory");
  }

  @Test
  void someShardsDecidedLocallyIsDegradedEitherWay() {
    Map<String, String> breakers = Map.of("a:1", "closed", "b:1", "probing");
    for (boolean affectsOverall : new boolean[] {false, true}) {
      Health health = health(affectsOverall, breakers);
      assertThat(health.getStatus()).isEqualTo(SluiceHealthIndicator.DEGRADED);
      assertThat(health.getDetails()).containsEntry("redis", "degraded");
    }
  }

  @Test
  void everyShardDecidedLocallyIsDownOnlyWhenItMayAffectTheApplication() {
    Map<String, String> breakers = Map.of("a:1", "open", "b:1", "probing");
    assertThat(health(false, breakers).getStatus()).isEqualTo(SluiceHealthIndicator.DEGRADED);
    assertThat(health(true, breakers).getStatus()).isEqualTo(Status.DOWN);
    assertThat(health(true, breakers).getDetails())
        .containsEntry("redis", "down")
        .containsEntry("fleetSize", 2);
  }

  @Test
  void everyShardAnsweringIsUp() {
    assertThat(health(true, Map.of("a:1", "closed")).getStatus()).isEqualTo(Status.UP);
  }
}
