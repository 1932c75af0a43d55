package dev.sluice.it.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.store.redis.RedisKey;
import java.util.List;

/** What the Redis store writes, as tests read it back: key names, counts, long windows. */
final class RedisKeys {
  private static final long DAY = 86_400_000_000L;

  private RedisKeys() {}

  /** The Redis key of a rule's counter for an identity, named as the store names it. */
  static String key(
      String prefix, String identity, String rule, Algorithm algorithm, long windowMicros) {
    return RedisKey.of(prefix, identity, rule, algorithm, windowMicros);
  }

  /** How many keys named under {@code prefix} the servers hold together. */
  static long countUnder(String prefix, RedisServer... servers) {
    long count = 0;
    for (RedisServer server : servers) {
      count +=
          ((List<?>) RedisProbe.once(server.host(), server.port(), "KEYS", prefix + "{*")).size();
    }
    return count;
  }

  /**
   * A fixed-window state as state.lua and fixed_window.lua lay it out: 1, the window index modulo
   * 10^4 in four digits, the count. Tests compare what Redis holds with it; a layout that drifted
   * would make them fail, not pass.
   */
  static String fixedState(long index, long count) {
    return String.format("1%04d%d", index % 10_000, count);
  }

  /** A sliding-window state: 1, the index in four digits, a width character, prev, cur. */
  static String slidingState(long index, long prev, long cur) {
    String p = Long.toString(prev);
    return String.format("1%04d%c%s%d", index % 10_000, (char) ('0' + p.length()), p, cur);
  }

  /** The count of a fixed-window state; 0 for no key. */
  static long count(String state) {
    return state == null ? 0 : Long.parseLong(state.substring(5));
  }

  /**
   * A window of 100 to 200 days with now in its middle half. Windows are aligned to the epoch, so a
   * test that counts on Redis TIME with this window never sees its count reset by a rollover.
   */
  static long windowFarFromItsEdges() {
    long now = System.currentTimeMillis() * 1000;
    for (long days = 100; days < 200; days++) {
      long window = days * DAY;
      long into = now % window;
      if (into > window / 4 && into < window / 4 * 3) {
        return window;
      }
    }
    throw new IllegalStateException("no window of 100 to 200 days has now in its middle half");
  }
}
