package dev.sluice.store.redis;

import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A decision's budget, on the thread that sends its own call (a caller leading a round trip of the {@link Pipeliner}): the
 * connections that thread borrows read with what is left of the budget, not with a whole timeout of
 * their own, and a connection borrowed once the budget is spent (the pool made it wait, or had to
 * connect anew) sends nothing. So borrowing, connecting and reading share one deadline instead of
 * taking a timeout each. A connection borrowed on any other thread reads with the configured
 * timeout, which also undoes what a leading caller left on it.
 */
final class Budget {
  /**
   * The deadline, and 1 once a connection was cut short. A plain ThreadLocal holding a JDK type:
   * the request threads it is set on are the container's, and outlive a web application, which a
   * ThreadLocal subclass of ours (or a value of ours) would then keep, as Tomcat warns at undeploy.
   */
  private static final ThreadLocal<long[]> DEADLINE = new ThreadLocal<>();

  private Budget() {}

  /** Runs {@code send} with connections bounded by {@code deadline} ({@link System#nanoTime}). */
  static void within(long deadline, Runnable send) {
    long[] held = held();
    held[0] = deadline;
    held[1] = 0;
    try {
      send.run();
    } finally {
      held[0] = 0;
    }
  }

  /**
   * Whether this thread's last {@link #within} gave a connection less than half the configured
   * timeout (the pool made it wait, or an earlier call of the decision took long): a read that then
   * timed out says more of the caller's budget than of Redis, so no breaker hears of it.
   */
  static boolean cutShort() {
    return held()[1] != 0;
  }

  /**
   * Sets {@code connection}'s read timeout for the borrowing thread; returns it, or returns it to
   * its pool and throws {@link Expired} when the thread's budget is spent.
   */
  static Connection apply(Connection connection, int configuredMillis) {
    long[] held = held();
    int millis = configuredMillis;
    if (held[0] != 0) {
      long left = TimeUnit.NANOSECONDS.toMillis(held[0] - System.nanoTime());
      if (left < 1) {
        connection.close();
        throw new Expired();
      }
      millis = (int) Math.min(configuredMillis, left);
      if (millis < configuredMillis / 2) {
        held[1] = 1;
      }
    }
    if (connection.getSoTimeout() != millis) {
      connection.setSoTimeout(millis);
    }
    return connection;
  }

  private static long[] held() {
    long[] held = DEADLINE.get();
    if (held == null) {
      held = new long[2];
      DEADLINE.set(held);
    }
    return held;
  }

  /** A call not sent because its caller stopped waiting: it says nothing of Redis. */
  static final class Expired extends JedisException {
    private static final long serialVersionUID = 1L;

    Expired() {
      super("the decision budget was spent before the call was sent");
    }
  }
}
