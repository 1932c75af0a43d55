package dev.sluice.bench.redis;

import java.util.List;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisPooled;

/**
 * Sluice's script without Sluice: the same EVALSHA with the same arguments, sent by the calling
 * thread itself on a pooled connection and waited for, one round trip per decision and no
 * pipelining. It separates what the {@code Pipeliner} adds (coalescing, and a hand-off to a sender
 * thread) from what the script costs.
 */
final class ScriptContender implements Contender {
  private final JedisPooled redis;
  private final String sha;
  private final List<List<String>> keys;
  private final List<String> args;

  ScriptContender(int port, int keys, int poolSize) {
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    pool.setMaxTotal(poolSize);
    pool.setMaxIdle(poolSize);
    redis = new JedisPooled(pool, LocalRedis.HOST, port);
    sha = redis.scriptLoad(Ceiling.acquireScript());
    this.keys = SluiceContender.scriptKeys(keys);
    this.args = Ceiling.acquireArgs();
  }

  @Override
  public boolean take(int key) {
    List<?> reply = (List<?>) redis.evalsha(sha, keys.get(key), args);
    return (Long) reply.get(0) == 1;
  }

  @Override
  public void close() {
    redis.close();
  }
}
