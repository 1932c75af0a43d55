package dev.sluice.bench.redis;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the Redis store's breaker openings (Redis failed or missed the 50 ms budget three times in
 * a row) from its log, instead of letting it print them in the middle of the tables.
 */
final class BreakerTrips extends Handler {
  /** Held here: the logging framework keeps only weak references to its loggers. */
  private static final Logger STORE_LOG = Logger.getLogger("dev.sluice.store.redis");

  private final AtomicInteger trips = new AtomicInteger();

  static BreakerTrips install() {
    BreakerTrips counter = new BreakerTrips();
    STORE_LOG.setUseParentHandlers(false);
    STORE_LOG.addHandler(counter);
    return counter;
  }

  int count() {
    return trips.get();
  }

  @Override
  public void publish(LogRecord record) {
    if (record.getMessage().contains("is failing")) {
      trips.incrementAndGet();
    }
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}
}
