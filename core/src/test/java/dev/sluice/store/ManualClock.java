package dev.sluice.store;

import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand. */
public final class ManualClock implements Clock {
  public static final long SECOND = 1_000_000;

  private final AtomicLong micros;

  public ManualClock(long startMicros) {
    this.micros = new AtomicLong(startMicros);
  }

  @Override
  public long micros() {
    return micros.get();
  }

  public void advance(long deltaMicros) {
    micros.addAndGet(deltaMicros);
  }

  public void advanceSeconds(long seconds) {
    advance(seconds * SECOND);
  }
}
