package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Consistency;
import dev.sluice.store.Counters;
import dev.sluice.store.Hash128;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A rule's counters in Redis: a key per identity, named by {@link RedisKey}. All rules of one
 * identity share a cluster slot and one script call; a rule whose algorithm or window changes
 * starts on fresh keys instead of misreading old state.
 */
final class RedisCounters implements Counters {
  /** The same rule's counters in the local store that decides while Redis cannot. */
  final Counters local;

  final String code;
  final Consistency consistency;

  /** Whether permits are decided from leases ({@link LeaseBook}): read once per permit. */
  final boolean localFirst;

  private final long salt;

  RedisCounters(Counters local) {
    this(local, Consistency.EXACT);
  }

  RedisCounters(Counters local, Consistency consistency) {
    this.local = local;
    this.consistency = consistency;
    this.localFirst = !consistency.isExact();
    this.code = codeOf(local.algorithm());
    this.salt = RedisKey.ruleSalt(local.ruleId(), local.algorithm(), local.windowMicros());
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

  /**
   * acquire.lua's terms of each quota of this rule ({@link IdentityCall#terms}), made once each.
   */
  private final Map<Quota, List<String>> terms = new ConcurrentHashMap<>();

  List<String> terms(Quota quota) {
    List<String> made = terms.get(quota);
    if (made == null) {
      // A rule has a quota per tier at most, each fixed until a reload makes new counters.
      made = IdentityCall.terms(code, quota.limit(), quota.toleranceMicros(), quota);
      terms.put(quota, made);
    }
    return made;
  }

  /** The key of the identity {@code hash} ({@link RedisKey#hash}) under this rule. */
  String key(String prefix, Hash128 hash) {
    return RedisKey.of(prefix, hash, salt);
  }

  @Override
  public String ruleId() {
    return local.ruleId();
  }

  @Override
  public Algorithm algorithm() {
    return local.algorithm();
  }

  @Override
  public long windowMicros() {
    return local.windowMicros();
  }

  @Override
  public String toString() {
    return local.toString();
  }
}
