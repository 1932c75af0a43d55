package dev.sluice.store.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A client that never reaches a server: each pipeline it is asked for fails with {@link #failure},
 * and {@link #pipelines} counts the attempts, which is how a test sees whether a decision asked
 * Redis at all; {@link #pipelinesOf} counts one thread's, apart from what the store's maintenance
 * thread sends meanwhile.
 */
final class FailingRedis extends JedisPooled {
  final AtomicInteger pipelines = new AtomicInteger();
  private final Map<Thread, Integer> byThread = new ConcurrentHashMap<>();
  volatile Throwable failure = new JedisConnectionException("Redis is down");

  FailingRedis() {
    super("127.0.0.1", 1);
  }

  @Override
  public Pipeline pipelined() {
    pipelines.incrementAndGet();
    byThread.merge(Thread.currentThread(), 1, Integer::sum);
    if (failure instanceof Error) {
      throw (Error) failure;
    }
    throw (RuntimeException) failure;
  }

  /** The pipelines {@code thread} asked for. */
  int pipelinesOf(Thread thread) {
    return byThread.getOrDefault(thread, 0);
  }
}
