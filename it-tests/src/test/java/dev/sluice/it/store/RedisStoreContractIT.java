package dev.sluice.it.store;

import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import dev.sluice.store.Store;
import dev.sluice.store.StoreContract;
import dev.sluice.store.redis.RedisStore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import redis.clients.jedis.JedisPooled;

/** The store contract, held against the Redis store on a real redis-server. */
class RedisStoreContractIT extends StoreContract {
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static RedisServer redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() throws Exception {
    redis.close();
  }

  private String prefix;

  @Override
  protected Store open(Clock clock) {
    JedisPooled jedis = new JedisPooled(redis.host(), redis.port());
    // A fresh key prefix per test: tests share the server but never a key.
    prefix = "t" + PREFIXES.incrementAndGet();
    return new RedisStore(
        jedis, "test", prefix, 1, clock, 1_000, RedisTime.following(clock), 1_000);
  }

  @Override
  protected long keyCount() {
    return RedisKeys.countUnder(prefix, redis);
  }
}
