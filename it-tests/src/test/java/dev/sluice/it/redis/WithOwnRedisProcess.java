package dev.sluice.it.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.JedisPooled;

/**
 * A test class with a redis-server process of its own ({@link RedisServers#localProcess}), for
 * tests that kill, pause or restart it, and a client for the test's own reads and writes: started
 * before its tests, closed after them.
 */
public abstract class WithOwnRedisProcess {
  protected static RedisProcess redis;
  protected static JedisPooled jedis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.localProcess();
    jedis = new JedisPooled(redis.host(), redis.port());
  }

  @AfterAll
  static void stopRedis() {
    jedis.close();
    redis.close();
  }
}
