package dev.sluice.it.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.JedisPooled;

/**
 * A test class with a standalone Redis server ({@link RedisServers#standalone}) and a client for
 * the test's own reads and writes: started before its tests, closed after them.
 */
public abstract class WithStandaloneRedis {
  protected static RedisServer redis;
  protected static JedisPooled jedis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
    jedis = new JedisPooled(redis.host(), redis.port());
  }

  @AfterAll
  static void stopRedis() throws Exception {
    jedis.close();
    redis.close();
  }
}
