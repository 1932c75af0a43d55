package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.redis.WithStandaloneRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.providers.PooledConnectionProvider;

/** A pool that a burst grew gives its idle connections back to Redis, down to the few it keeps. */
class IdleConnectionsIT extends WithStandaloneRedis {
  private static final String NAME = "sluice-idle-it";

  @Test
  void aBurstsConnectionsCloseOnceIdle() throws Exception {
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(12);
    pool.setMaxIdle(12);
    RedisSettings.idleConnectionsClose(pool, Duration.ofMillis(400));
    try (PooledConnectionProvider connections =
        new PooledConnectionProvider(
            new HostAndPort(redis.host(), redis.port()),
            DefaultJedisClientConfig.builder().clientName(NAME).build(),
            pool)) {
      List<Connection> burst = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        burst.add(connections.getConnection());
      }
      burst.forEach(Connection::close); // back to the pool, idle
      assertThat(clients()).isEqualTo(10);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (clients() > RedisSettings.KEPT_IDLE && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(clients()).isEqualTo(RedisSettings.KEPT_IDLE);
    }
  }

  /** The connections Redis has from this test's pool, by their client name. */
  private static long clients() {
    try (Jedis admin = new Jedis(redis.host(), redis.port())) {
      return admin
          .clientList()
          .lines()
          .filter(line -> line.contains(" name=" + NAME + " "))
          .count();
    }
  }
}
