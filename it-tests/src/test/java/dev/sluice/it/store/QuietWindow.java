package dev.sluice.it.store;

import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import java.util.List;

/**
 * Window lengths that put Redis's "now" well inside an epoch-aligned window. Tests that count
 * against Redis TIME (the production ScriptTime) cannot set the time, so instead they pick a window
 * whose boundary is far away: a count that crossed a boundary mid-test would admit a second limit
 * and fail an exactness test for no fault of the store.
 */
final class QuietWindow {
  static final long SECOND = 1_000_000;

  private QuietWindow() {}

  /** Redis TIME in microseconds: the clock every script counts by. */
  static long redisMicros(RedisServer redis) {
    List<?> time = (List<?>) RedisProbe.once(redis.host(), redis.port(), "TIME");
    return Long.parseLong((String) time.get(0)) * SECOND + Long.parseLong((String) time.get(1));
  }

  /**
   * The first of {@code base}, {@code base + 1s}, {@code base + 2s}... for which Redis's now, moved
   * by each of {@code offsets} (none: now itself), is at least {@code margin} from both edges of
   * its window. Each extra second moves now's position in the window by about now/base seconds
   * (modulo the window), so consecutive candidates are scattered and one of the first few fits;
   * should none of 200, the test fails saying so rather than risk a boundary.
   */
  static long lengthFor(RedisServer redis, long baseMicros, long marginMicros, long... offsets) {
    long now = redisMicros(redis);
    long[] instants = offsets.length == 0 ? new long[] {0} : offsets;
    for (int i = 0; i < 200; i++) {
      long window = baseMicros + i * SECOND;
      boolean quiet = true;
      for (long offset : instants) {
        long into = (now + offset) % window;
        quiet &= into >= marginMicros && window - into >= marginMicros;
      }
      if (quiet) {
        return window;
      }
    }
    throw new IllegalStateException(
        "no window near "
            + baseMicros
            + "µs keeps "
            + marginMicros
            + "µs from its edges at "
            + now);
  }
}
