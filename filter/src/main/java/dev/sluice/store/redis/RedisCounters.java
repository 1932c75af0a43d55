package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.store.Counters;

/**
 * A rule's counters in Redis: a key per identity, named by {@link RedisKey}. All rules of one
 * identity share a cluster slot and one script call; a rule whose algorithm or window changes
 * starts on fresh keys instead of misreading old state.
 */
final class RedisCounters implements Counters {
  private final String ruleId;
  private final Algorithm algorithm;
  private final long windowMicros;
  final String code;

  /** The same rule's counters in the local store that decides while Redis cannot. */
  final Counters local;

  private final long salt;

  RedisCounters(String ruleId, Algorithm algorithm, long windowMicros, Counters local) {
    this.ruleId = ruleId;
    this.algorithm = algorithm;
    this.windowMicros = windowMicros;
    this.code = codeOf(algorithm);
    this.local = local;
    this.salt = RedisKey.ruleSalt(ruleId, algorithm, windowMicros);
  }

  static String codeOf(Algorithm algorithm) {
    switch (algorithm) {
      case FIXED_WINDOW:
        return "f";
      case SLIDING_WINDOW:
        return "s";
      default:
        return "t";
    }
  }

  String key(String prefix, String identity) {
    return RedisKey.of(prefix, identity, salt);
  }

  @Override
  public String ruleId() {
    return ruleId;
  }

  @Override
  public Algorithm algorithm() {
    return algorithm;
  }

  @Override
  public long windowMicros() {
    return windowMicros;
  }

  @Override
  public String toString() {
    return ruleId + "/" + algorithm + "/" + windowMicros + "µs";
  }
}
