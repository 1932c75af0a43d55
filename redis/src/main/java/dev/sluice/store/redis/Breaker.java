package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.RulesInForce;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Stops calling a Redis that keeps failing, so a dead Redis costs microseconds per request rather
 * than a timeout each. After {@value #FAILURES_TO_OPEN} failed round trips in a row it opens for a
 * pause that doubles with each failed probe (up to {@value #MAX_PAUSE_MILLIS} ms); then one request
 * probes while the rest stay local, and the probe's success closes it ({@link Handover} makes that
 * success charge first what was admitted locally meanwhile). State changes are logged once each.
 *
 * <p>Two sources, kept apart: the {@link Pipeliner} reports how Redis answered each round trip
 * ({@link #answered}, {@link #failed}), which opens the breaker; only the probe's owner reports the
 * probe ({@link #probeSucceeded}, {@link #probeFailed}), which closes it or lengthens the pause. So
 * neither a round trip that started before the breaker opened nor one of a handover can close it
 * early, and a caller that merely waited too long (a pause of this JVM) counts for nothing.
 *
 * <p>Closed, it still {@link #holds} the window it closed in for the local share: see there.
 */
final class Breaker {
  private static final Logger LOG = Logger.getLogger("dev.sluice.store.redis");
  static final int FAILURES_TO_OPEN = 3;
  static final long FIRST_PAUSE_MILLIS = 100;
  static final long MAX_PAUSE_MILLIS = 5_000;

  /** The longest window {@link #holds} keeps local: as long as a breaker's longest pause. */
  static final long HOLD_MICROS = MAX_PAUSE_MILLIS * 1000;

  /** What {@link #closedAt} holds when no window is held. */
  private static final long NONE = Long.MIN_VALUE;

  /** What a request may do. */
  enum Pass {
    /** The breaker is closed: call Redis. */
    CALL,
    /** The breaker is open and this request is its probe: call Redis and report how it went. */
    PROBE,
    /** The breaker is open: decide locally. */
    LOCAL
  }

  private final Clock clock;

  /** What the log names: the server, or on Redis Cluster the master serving this shard's slots. */
  private volatile String target;

  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicBoolean probing = new AtomicBoolean();
  private volatile boolean open;
  private volatile long pauseMillis = FIRST_PAUSE_MILLIS;
  private volatile long openUntilMicros;

  /** When this breaker last closed, by this JVM's clock, for {@link #HOLD_MICROS}; else NONE. */
  private final AtomicLong closedAt = new AtomicLong(NONE);

  Breaker(Clock clock, String target) {
    this.clock = clock;
    this.target = target;
  }

  Pass pass() {
    if (!open) {
      return Pass.CALL;
    }
    return clock.micros() >= openUntilMicros && probing.compareAndSet(false, true)
        ? Pass.PROBE
        : Pass.LOCAL;
  }

  /** Redis answered a round trip: failures are no longer in a row. An open breaker stays open. */
  void answered() {
    if (failures.get() != 0) {
      failures.set(0);
    }
  }

  /** A round trip failed. */
  void failed(Exception cause) {
    failed(cause, 1);
  }

  /**
   * A failure that counts as {@code weight} in a row (a Redis never reached opens at once). Once
   * open, only the probe's owner reports: this is then a straggler, and changes nothing.
   */
  void failed(Exception cause, int weight) {
    if (!open && failures.addAndGet(weight) >= FAILURES_TO_OPEN) {
      openUntilMicros = clock.micros() + pauseMillis * 1000;
      probing.set(false);
      open = true;
      LOG.warning(
          "Sluice: Redis "
              + target
              + " is failing ("
              + cause
              + "); rules decide "
              + "locally (fail_open: this JVM's share of each limit; fail_closed: deny) until it "
              + "answers again "
              + RulesInForce.named()
              + ".");
    }
  }

  /**
   * The probe, or a connection made anew, found Redis answering; {@code handedOver} keys charged.
   */
  void probeSucceeded(int handedOver) {
    failures.set(0);
    if (open) {
      closedAt.set(clock.micros());
      open = false;
      pauseMillis = FIRST_PAUSE_MILLIS;
      probing.set(false);
      LOG.warning(
          "Sluice: Redis "
              + target
              + " answers again; handed over "
              + handedOver
              + " keys admitted locally; limits are shared again "
              + RulesInForce.named()
              + ".");
    }
  }

  /**
   * Whether a call of {@code permits}, with this breaker closed, is still decided locally: every
   * permit takes the local share (fail_open), one at least is a fixed or sliding window of at most
   * {@link #HOLD_MICROS}, and this breaker closed in the window (by this JVM's clock) that permit's
   * rule is in now. Other JVMs may still be deciding that window locally, their breakers not yet
   * closed, and Redis cannot know what they will admit in it: what this JVM would admit from Redis
   * would come on top. Held to its end, each JVM's part of a window is either all local (at most
   * its share) or all from Redis, so a window all JVMs switch back in admits at most the fleet's
   * shares, and one after it at most the limit (docs/design.md, "Handover"). A request a
   * fail_closed rule also decides goes to Redis (locally it would be denied); so does a bucket (its
   * share keeps a rate, with no window to end) and a longer window (a JVM on its local share for
   * most of a minute after Redis is back would cost more than the charges' inexactness).
   *
   * <p>With no window held this is one volatile read; the clock is read only for {@link
   * #HOLD_MICROS} after a close.
   */
  boolean holds(List<Permit> permits) {
    long closed = closedAt.get();
    if (closed == NONE) {
      return false;
    }
    long now = clock.micros();
    if (now - closed >= HOLD_MICROS) {
      closedAt.compareAndSet(closed, NONE);
      return false;
    }
    boolean held = false;
    for (Permit permit : permits) {
      if (permit.onError() == OnError.FAIL_CLOSED) {
        return false;
      }
      long window = permit.quota().windowMicros();
      held |=
          permit.counters().algorithm() != Algorithm.TOKEN_BUCKET
              && window <= HOLD_MICROS
              && now / window == closed / window;
    }
    return held;
  }

  /**
   * The probe's owner sent Redis nothing (nothing was owed to this master after all), so nothing
   * was learnt: the next request probes, with a call of its own. Only an answer closes a breaker.
   */
  void releaseProbe() {
    if (open) {
      probing.set(false);
    }
  }

  /**
   * A replica promoted in a failover serves this shard now: the log names it from now on, and,
   * open, the next request probes it at once with the first pause. The pause grew on probes sent to
   * the master that died; waiting it out (up to {@value #MAX_PAUSE_MILLIS} ms) would keep this JVM
   * on its local share for seconds after the rest of the fleet is back on Redis, each of its local
   * admissions on top of what Redis admits in that window.
   */
  void servedBy(String target) {
    this.target = target;
    if (open) {
      pauseMillis = FIRST_PAUSE_MILLIS;
      openUntilMicros = clock.micros();
    }
  }

  /**
   * Ends the probe that {@code pass} made its owner, if it did: whether Redis answered its call
   * closes the breaker or lengthens its pause. Called on every way out of a call: a breaker left
   * probing would never close.
   */
  void callEnded(Pass pass, boolean answered) {
    if (pass != Pass.PROBE) {
      return;
    }
    if (answered) {
      probeSucceeded(0);
    } else {
      probeFailed();
    }
  }

  /** The probe failed or timed out: wait longer before the next one. */
  void probeFailed() {
    if (open) {
      pauseMillis = Math.min(MAX_PAUSE_MILLIS, pauseMillis * 2);
      openUntilMicros = clock.micros() + pauseMillis * 1000;
      probing.set(false);
    }
  }

  boolean isOpen() {
    return open;
  }

  /** What the log names: the server, or on Redis Cluster the master serving this shard's slots. */
  String target() {
    return target;
  }

  /** {@link StoreStatus#CLOSED}, {@link StoreStatus#OPEN} or {@link StoreStatus#PROBING}. */
  String state() {
    return !open ? StoreStatus.CLOSED : probing.get() ? StoreStatus.PROBING : StoreStatus.OPEN;
  }
}
