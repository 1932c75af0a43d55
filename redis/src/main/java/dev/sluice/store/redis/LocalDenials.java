package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.store.Clock;
import dev.sluice.store.Permit;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The design notes' LOCAL_DENY: keys Redis has just denied, with the time until which it will keep
 * denying that request if nothing else happens (its retry-after). Such a request, or one Redis
 * would deny whenever it denies that one ({@link #slack}), is denied here without a round trip,
 * which keeps a flooding client off the shard. It only ever denies, and only what Redis itself
 * promised to deny; a reload forgets everything, since limits may have changed.
 */
final class LocalDenials {
  /** Beyond this many keys new denials are not remembered: memory stays bounded under any flood. */
  static final int MAX_KEYS = 100_000;

  private final Clock clock;
  private final Map<String, Denial> denials = new ConcurrentHashMap<>();

  LocalDenials(Clock clock) {
    this.clock = clock;
  }

  /**
   * Fills the verdict of {@code permit} and returns true if Redis promised to deny it for {@code
   * key} until later than now.
   */
  boolean deny(String key, Permit permit) {
    Denial denial = denials.get(key);
    if (denial == null) {
      return false;
    }
    long now = clock.micros();
    if (denial.retryUntil <= now) {
      denials.remove(key, denial);
      return false;
    }
    if (slack(permit) > denial.slack) {
      return false;
    }
    // Only the denied quota's remaining is known; under another, less than this request's cost is
    // left, and 0 errs on the side of the limit.
    long remaining = permit.quota() == denial.quota ? denial.remaining : 0;
    permit.verdict().set(false, remaining, denial.resetUntil - now, denial.retryUntil - now);
    return true;
  }

  void remember(String key, Permit denied) {
    Verdict verdict = denied.verdict();
    remember(
        key,
        denied.quota(),
        slack(denied),
        verdict.retryAfterMicros(),
        verdict.resetMicros(),
        verdict.remaining());
  }

  /**
   * Remembers that Redis denied a request of one permit under {@code quota} of a rule of {@code
   * algorithm} for {@code key}: a lease call that found no permit to grant.
   */
  void remember(
      String key, Algorithm algorithm, Quota quota, long retryMicros, long resetMicros, long left) {
    remember(key, quota, slack(algorithm, quota, 1), retryMicros, resetMicros, left);
  }

  private void remember(
      String key, Quota quota, long slack, long retryMicros, long resetMicros, long remaining) {
    if (denials.size() < MAX_KEYS) {
      long now = clock.micros();
      denials.put(
          key, new Denial(now + retryMicros, now + resetMicros, remaining, quota, slack));
    }
  }

  /**
   * How much a request leaves room for before it is denied, in what its algorithm counts: a window
   * denies it once its count (or the sliding estimate) exceeds limit − cost, a bucket once its
   * backlog exceeds (burst − cost) × emission. So whatever Redis holds for a key, a request with no
   * more slack than a denied one is denied too. A key is counted by every tier of its rule, each
   * with its own quota: a free request's denial says nothing of a pro request, the other way round
   * it does.
   */
  private static long slack(Permit permit) {
    return slack(permit.counters().algorithm(), permit.quota(), permit.cost());
  }

  private static long slack(Algorithm algorithm, Quota quota, long cost) {
    return algorithm == Algorithm.TOKEN_BUCKET
        ? quota.toleranceMicros() - cost * quota.emissionMicros()
        : quota.limit() - cost;
  }

  void forgetAll() {
    denials.clear();
  }

  /** Drops expired entries. */
  void sweep() {
    long now = clock.micros();
    for (Iterator<Denial> it = denials.values().iterator(); it.hasNext(); ) {
      if (it.next().retryUntil <= now) {
        it.remove();
      }
    }
  }

  private static final class Denial {
    final long retryUntil;
    final long resetUntil;
    final long remaining;
    final Quota quota;
    final long slack;

    Denial(long retryUntil, long resetUntil, long remaining, Quota quota, long slack) {
      this.retryUntil = retryUntil;
      this.resetUntil = resetUntil;
      this.remaining = remaining;
      this.quota = quota;
      this.slack = slack;
    }
  }
}
