package dev.sluice.config;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.core.Rule;
import dev.sluice.store.Consistency;

/**
 * What {@code check} says of a local-first rule: the error its leases may make, in the rule's own
 * numbers, by the formulas of docs/design.md ("Local-first decisions"). A window is never
 * over-admitted, since a lease is taken from the window's shared count and dies when the window
 * ends; a bucket may be, by what it refills over one sync, since a lease's permits are spent up to
 * a sync after Redis took them. Either may strand what leases other JVMs hold, at most a grant and
 * a half each.
 */
final class LocalFirstBound {
  private LocalFirstBound() {}

  /** One line on {@code rule}, for a Redis store shared by {@code fleet} JVMs (at least). */
  static String of(Rule rule, int fleet) {
    Quota quota = rule.quota();
    long sync = rule.consistency().syncMicros();
    String head = "rule " + rule.id() + ": local_first, sync " + sync / 1000 + " ms: ";
    if (rule.shadow()) {
      return head + "counted exactly all the same, as every shadow rule is";
    }
    String stranded =
        "; leases other JVMs hold may leave up to "
            + strandedAtMost(quota.limit(), fleet)
            + " of them unused (with "
            + fleet
            + " JVMs), given back after "
            + sync / 1000
            + " ms idle";
    if (rule.algorithm() == Algorithm.TOKEN_BUCKET) {
      return head
          + "may admit up to "
          + overAtMost(quota, sync)
          + " beyond the bucket (its refill over one sync), fleet-wide"
          + stranded;
    }
    return head + "never admits more than its " + quota.limit() + " a window" + stranded;
  }

  /**
   * Each JVM holds at most a grant of c ({@link Consistency#grantCap}) and the half left of the one
   * before it: fleet × (c + c ÷ 2), never more than the limit.
   */
  static long strandedAtMost(long limit, int fleet) {
    long grant = Consistency.grantCap(limit, fleet);
    return Math.min(limit, fleet * (grant + grant / 2));
  }

  /** What a bucket refills in one sync: rate × sync, rounded up. */
  static long overAtMost(Quota quota, long syncMicros) {
    return (syncMicros + quota.emissionMicros() - 1) / quota.emissionMicros();
  }
}
