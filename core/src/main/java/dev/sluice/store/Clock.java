package dev.sluice.store;

/**
 * The time a store decides by, in microseconds since the epoch. Injected so every algorithm and the
 * memory store are tested without sleeping; the Redis store uses Redis {@code TIME} instead.
 */
public interface Clock {
  long micros();

  /**
   * Wall-clock aligned (so windows start on whole seconds and minutes, as they would in Redis) but
   * advanced by {@link System#nanoTime()}, so it never steps back when NTP adjusts the wall clock.
   */
  Clock SYSTEM =
      new Clock() {
        private final long originMicros = System.currentTimeMillis() * 1000;
        private final long originNanos = System.nanoTime();

        @Override
        public long micros() {
          return originMicros + (System.nanoTime() - originNanos) / 1000;
        }
      };
}
