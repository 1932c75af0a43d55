package dev.sluice.bench.redis;

/**
 * A rate limiter backed by Redis, driven by the same loop as the others: one decision for one of
 * {@code keys} identities, with the same limit.
 */
interface Contender extends AutoCloseable {
  /**
   * The limit of every contender: 10⁹ permits per minute, so every decision takes the allow path
   * (the expensive one: it writes) and none is ever denied during a run.
   */
  long LIMIT = 1_000_000_000L;

  long WINDOW_MICROS = 60_000_000L;

  /** Takes one permit for identity {@code key}; true if allowed. Throws if Redis failed. */
  boolean take(int key);

  @Override
  void close();

  /** The identity of client {@code i}, as Sluice's {@code key: ip} builds it. */
  static String identity(int i) {
    return "ip=10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255);
  }
}
