package dev.sluice.store.redis;

import dev.sluice.metrics.RoundTrips;
import dev.sluice.support.Daemons;
import dev.sluice.support.Failures;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Logger;
import redis.clients.jedis.UnifiedJedis;

/**
 * What a Redis store does off the request path, on one thread, once a second: connects (again and
 * again while Redis is unreachable, so a store can start before its Redis), reads a cluster's slot
 * map again, hands over what was admitted locally, beats the fleet's heartbeat and forgets local
 * denials that have ended. It owns the {@link ConnectedClient}, which requests only read.
 *
 * <p>While a breaker is open it also reads a cluster's slot map every {@value #FOLLOW_MILLIS} ms,
 * not once a second: the JVMs of a fleet learn that a replica was promoted each at its own next
 * read, and the later the last of them switches back, the more windows some JVMs decide from Redis
 * while others still admit their local share on top ({@link Breaker#holds}). A round a second would
 * spread the fleet's switches over a whole second; {@value #FOLLOW_MILLIS} ms over a quarter of it,
 * for 4 reads more a second per JVM, and only while a master is failing.
 */
final class Maintenance implements AutoCloseable {
  /** How often the slot map is read while a breaker is open. */
  static final long FOLLOW_MILLIS = 250;

  private final Failures failures = new Failures(Logger.getLogger("dev.sluice.store.redis"));
  private final Supplier<UnifiedJedis> connector;
  private final long timeoutMillis;
  private final ShardBreakers breakers;
  private final LocalDenials denials;
  private final LocalLedger ledger;
  private final Handover handover;
  private final Fleet fleet;
  private final ScriptTime time;
  private final RoundTrips roundTrips;
  private final ScheduledExecutorService thread;

  /** The client and its pipelines; null until the first successful connection. */
  private volatile ConnectedClient client;

  /**
   * Set by {@link #close}, which waits a second for a round in progress: a connect can take longer
   * (the timeout per seed), and the client it then brings back must be closed by this thread.
   */
  private volatile boolean closed;

  Maintenance(
      Supplier<UnifiedJedis> connector,
      long timeoutMillis,
      ShardBreakers breakers,
      LocalDenials denials,
      LocalLedger ledger,
      Fleet fleet,
      ScriptTime time,
      RoundTrips roundTrips) {
    this.connector = connector;
    this.timeoutMillis = timeoutMillis;
    this.breakers = breakers;
    this.denials = denials;
    this.ledger = ledger;
    this.handover = new Handover(ledger, breakers);
    this.fleet = fleet;
    this.time = time;
    this.roundTrips = roundTrips;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(Daemons.named("sluice-redis-maintenance"));
    run();
    thread.scheduleWithFixedDelay(this::run, 1, 1, TimeUnit.SECONDS);
    thread.scheduleWithFixedDelay(
        this::followWhileFailing, FOLLOW_MILLIS, FOLLOW_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * Runs {@code task} on this thread every {@code millis}, from now until the store closes; a
   * throwable is logged and the task runs again.
   */
  void every(long millis, Runnable task) {
    thread.scheduleWithFixedDelay(
        () -> {
          try {
            task.run();
          } catch (Throwable t) {
            failures.log("Sluice's Redis maintenance failed; it runs again", t);
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
  }

  /** The connected client, or null while Redis has never been reached. */
  ConnectedClient client() {
    return client;
  }

  /** Whether what was admitted locally is owed to the master behind {@code master}. */
  boolean owes(Breaker master) {
    return handover.owes(master);
  }

  /**
   * Hands over what was admitted locally as the probe of {@code probing}, on this thread rather
   * than the request's: Redis must learn it before it decides again.
   */
  void handOverLater(ConnectedClient current, Breaker probing) {
    try {
      thread.execute(() -> handover.run(current.pipeliner, time.arg(), probing));
    } catch (RejectedExecutionException e) {
      // The store is closing: nothing left to hand over to.
    }
  }

  /**
   * One round of maintenance. A throwable of any kind is logged and the next round comes all the
   * same: a scheduled task that throws is never run again, and a store without maintenance would
   * never connect, hand over or beat again.
   */
  private void run() {
    try {
      runOnce();
    } catch (Throwable t) {
      failures.log("Sluice's Redis maintenance failed; it runs again in a second", t);
    }
  }

  /** Reads a cluster's slot map again while a breaker is open; see the class comment. */
  private void followWhileFailing() {
    try {
      ConnectedClient current = client;
      if (current != null && breakers.anyOpen()) {
        current.followSlots();
      }
    } catch (Throwable t) {
      failures.log("Sluice could not read the Redis Cluster's slot map; it tries again", t);
    }
  }

  private void runOnce() {
    denials.sweep();
    ledger.forgetEnded();
    ConnectedClient current = client;
    if (current == null) {
      current = connect();
    } else {
      current.followSlots();
      if (ledger.owes(key -> !breakers.unreachable(key, null))) {
        // Decided locally around a switch, after the handover had taken its list. Keys of masters
        // still failing wait for their probe: while all are, nothing is copied or sent each second.
        handover.run(current.pipeliner, time.arg(), null);
      }
    }
    if (current != null && fleet.isAuto()) {
      fleet.beat(current.redis, time);
    }
  }

  private ConnectedClient connect() {
    try {
      ConnectedClient connected = connected(connector.get());
      client = connected;
      if (closed) {
        connected.close(); // close() may have read client before it was set
        return null;
      }
      handover.run(connected.pipeliner, time.arg(), breakers.whole());
      return connected;
    } catch (RuntimeException e) {
      breakers.whole().failed(e, Breaker.FAILURES_TO_OPEN);
      roundTrips.failed();
      return null;
    }
  }

  /** The client and its pipelines, or the client closed and the failure thrown. */
  private ConnectedClient connected(UnifiedJedis redis) {
    try {
      return new ConnectedClient(redis, timeoutMillis, breakers, roundTrips);
    } catch (RuntimeException | Error e) {
      redis.close(); // else its connections, and a cluster client's pools, would stay open
      throw e;
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
    try {
      thread.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ConnectedClient current = client;
    if (current != null) {
      current.close();
      PoolEvictor.awaitEnding();
    }
  }
}
