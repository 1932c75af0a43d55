package dev.sluice.metrics;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * How a shared store's round trips went: how long each took, how many commands each carried, and
 * how many failed. Recorded off the request's critical section: once per pipeline, not per
 * decision.
 */
public final class RoundTrips {
  private final LatencyWindow latency;
  private final LongAdder commands = new LongAdder();
  private final LongAdder failures = new LongAdder();

  /**
   * @param micros the time in microseconds, as {@code dev.sluice.store.Clock} gives it
   */
  public RoundTrips(LongSupplier micros) {
    this.latency = new LatencyWindow(micros);
  }

  /** A round trip of {@code commands} commands answered after {@code nanos}. */
  public void answered(long nanos, int commands) {
    latency.record(nanos);
    this.commands.add(commands);
  }

  /** A server did not answer a round trip, or could not be connected to. */
  public void failed() {
    failures.increment();
  }

  LatencyWindow latency() {
    return latency;
  }

  long commands() {
    return commands.sum();
  }

  long failures() {
    return failures.sum();
  }
}
