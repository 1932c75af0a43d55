package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;

class IdleConnectionsTest {
  @Test
  void aPoolClosesWhatABurstOpenedOnceIdleButKeepsAFew() {
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    assertThat(pool.getDurationBetweenEvictionRuns().isNegative())
        .as("commons-pool's default: no evictor, a pool never shrinks")
        .isTrue();
    RedisSettings.idleConnectionsClose(pool);
    assertThat(pool.getDurationBetweenEvictionRuns()).isEqualTo(Duration.ofSeconds(30));
    assertThat(pool.getSoftMinEvictableIdleDuration()).isEqualTo(Duration.ofMinutes(1));
    assertThat(pool.getMinIdle()).isEqualTo(2);
  }
}
