package dev.sluice.it.store;

/** What the Redis store writes, as tests read it back: key names, counts, long windows. */
final class RedisKeys {
  private static final long DAY = 86_400_000_000L;

  private RedisKeys() {}

  /**
   * The Redis key of a rule's counter for an identity, as design.md and RedisCounters lay it out:
   * {@code <prefix>:{<identity>}:<rule>:<algorithm letter><window in ms>}. Tests read it to check
   * what the scripts wrote; a layout that drifted would make those reads fail, not pass.
   */
  static String key(String prefix, String identity, String rule, char code, long windowMicros) {
    return prefix + ":{" + identity + "}:" + rule + ":" + code + windowMicros / 1000;
  }

  /** The count of a fixed-window state {@code "<window index>:<count>"}; 0 for no key. */
  static long count(String state) {
    return state == null ? 0 : Long.parseLong(state.substring(state.indexOf(':') + 1));
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
