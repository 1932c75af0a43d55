package dev.sluice.store.redis;

import dev.sluice.store.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Stops calling a Redis that keeps failing, so a dead Redis costs microseconds per request rather
 * than a timeout each. After {@value #FAILURES_TO_OPEN} failures in a row it opens for a pause that
 * doubles with each failed probe (up to {@value #MAX_PAUSE_MILLIS} ms); then one request probes
 * while the rest stay local, and one success closes it ({@link Handover} makes that success charge
 * first what was admitted locally meanwhile). State changes are logged once each.
 */
final class Breaker {
  private static final Logger LOG = Logger.getLogger("dev.sluice.store.redis");
  static final int FAILURES_TO_OPEN = 3;
  static final long FIRST_PAUSE_MILLIS = 100;
  static final long MAX_PAUSE_MILLIS = 5_000;

  private final Clock clock;
  private final String target;
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicBoolean probing = new AtomicBoolean();
  private volatile boolean open;
  private volatile long pauseMillis = FIRST_PAUSE_MILLIS;
  private volatile long openUntilMicros;

  Breaker(Clock clock, String target) {
    this.clock = clock;
    this.target = target;
  }

  /** True if this request may call Redis: the breaker is closed, or this request is the probe. */
  boolean allowsCall() {
    if (!open) {
      return true;
    }
    return clock.micros() >= openUntilMicros && probing.compareAndSet(false, true);
  }

  void succeeded() {
    succeeded(0);
  }

  /** Redis answered, and now counts what {@code handedOver} keys admitted locally meanwhile. */
  void succeeded(int handedOver) {
    failures.set(0);
    if (open) {
      open = false;
      pauseMillis = FIRST_PAUSE_MILLIS;
      probing.set(false);
      LOG.warning(
          "Sluice: Redis "
              + target
              + " answers again; handed over "
              + handedOver
              + " keys admitted locally; limits are shared again.");
    }
  }

  void failed(Exception cause) {
    failed(cause, FAILURES_TO_OPEN);
  }

  /** A failure that counts as {@code weight} in a row (a Redis never reached opens at once). */
  void failed(Exception cause, int weight) {
    if (open) {
      // The probe failed: wait longer before the next one.
      pauseMillis = Math.min(MAX_PAUSE_MILLIS, pauseMillis * 2);
      openUntilMicros = clock.micros() + pauseMillis * 1000;
      probing.set(false);
    } else if (failures.addAndGet(weight) >= FAILURES_TO_OPEN) {
      openUntilMicros = clock.micros() + pauseMillis * 1000;
      open = true;
      LOG.warning(
          "Sluice: Redis "
              + target
              + " is failing ("
              + cause
              + "); rules decide "
              + "locally (fail_open: this JVM's share of each limit; fail_closed: deny) until it "
              + "answers again.");
    }
  }

  boolean isOpen() {
    return open;
  }
}
