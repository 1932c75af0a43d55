package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides what Redis cannot: a fail_open rule gets this JVM's share of its limit (limit ÷ fleet
 * size, at least one request) from a local memory store, so the fleet as a whole stays near the
 * limit instead of letting everything through; a fail_closed rule denies with a retry of one
 * second. Like every decision, all or nothing: one fail_closed rule denies the request. What it
 * admits is remembered in a {@link LocalLedger}, to be handed over to Redis when it answers again.
 *
 * <p>In the window in which Redis stopped answering, Redis had already counted part of the limit:
 * starting every JVM's share from nothing would let the fleet admit that part a second time. So
 * where this JVM's last answer for a key ({@link LastAnswers}) still speaks of the window in force,
 * its share of that window is at most the remaining that answer gave, divided by the fleet size
 * (rounded down: none if less than the request's cost); a key Redis denied is denied until its
 * retry-after already ({@link LocalDenials}). From the next window on, the share is whole again.
 */
final class LocalShare {
  private static final long ONE_SECOND = 1_000_000;

  private final MemoryStore store;
  private final Fleet fleet;
  private final LocalLedger ledger;
  private final LastAnswers answers;
  private final Clock clock;

  /** Share quotas per rule quota, for the fleet size they were made for. */
  private volatile Shares shares = new Shares(0);

  LocalShare(MemoryStore store, Fleet fleet, LocalLedger ledger, LastAnswers answers, Clock clock) {
    this.store = store;
    this.fleet = fleet;
    this.ledger = ledger;
    this.answers = answers;
    this.clock = clock;
  }

  Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
    return store.counters(ruleId, algorithm, windowMicros);
  }

  void retainOnly(List<Counters> live) {
    store.retainOnly(live);
  }

  /**
   * Decides {@code permits} (of {@link RedisCounters}) locally, filling their verdicts; {@code
   * keys} are their Redis keys, in the same order.
   */
  void acquire(List<Permit> permits, List<String> keys) {
    for (Permit permit : permits) {
      if (permit.onError() == OnError.FAIL_CLOSED) {
        denyAll(permits, ONE_SECOND);
        return;
      }
    }
    List<Permit> local = new ArrayList<>(permits.size());
    for (int i = 0; i < permits.size(); i++) {
      Permit permit = permits.get(i);
      Quota share = shareNow(permit, keys.get(i));
      if (share == null) {
        long window = permit.quota().windowMicros();
        denyAll(permits, window - clock.micros() % window);
        return;
      }
      Counters counters = ((RedisCounters) permit.counters()).local;
      local.add(new Permit(counters, permit.identity(), share, permit.cost()));
    }
    store.acquire(local);
    for (int i = 0; i < permits.size(); i++) {
      Permit permit = permits.get(i);
      copy(local.get(i), permit);
      permit.markDecidedLocally(local.get(i).quota());
      permit.tookAt(local.get(i).verdict().nextFirst()); // what a refund gives back
      if (permit.verdict().allowed()) {
        String code = ((RedisCounters) permit.counters()).code;
        ledger.remember(keys.get(i), code, permit.quota(), permit.cost());
      }
    }
  }

  /**
   * Gives back what of {@code permit}'s local take has not refilled: a delayed request allowed here
   * that is not served after all. Its take is in the share's bucket, under the share's quota.
   */
  void refund(Permit permit) {
    Counters counters = ((RedisCounters) permit.counters()).local;
    Permit local = new Permit(counters, permit.identity(), permit.decidedUnder(), permit.cost());
    local.verdict().took(permit.take());
    store.refund(Collections.singletonList(local));
  }

  /** Denies the whole request, nothing taken, with a retry after {@code retryMicros}. */
  private static void denyAll(List<Permit> permits, long retryMicros) {
    for (Permit each : permits) {
      each.verdict().set(false, 0, retryMicros, retryMicros);
      each.markDecidedLocally();
    }
  }

  private static void copy(Permit from, Permit to) {
    to.verdict()
        .set(
            from.verdict().allowed(),
            from.verdict().remaining(),
            from.verdict().resetMicros(),
            from.verdict().retryAfterMicros());
  }

  /**
   * This JVM's share of the permit's quota now: in the window of the last answer Redis gave for
   * {@code key}, no more than what that answer left ÷ fleet size, and null when that is less than
   * the request's cost.
   */
  private Quota shareNow(Permit permit, String key) {
    Quota share = share(permit);
    if (permit.counters().algorithm() == Algorithm.TOKEN_BUCKET) {
      return share;
    }
    long left = answers.remaining(key, clock.micros() / share.windowMicros());
    if (left == LastAnswers.UNKNOWN) {
      return share;
    }
    long allowance = left / fleet.size();
    if (allowance < permit.cost()) {
      return null;
    }
    return allowance >= share.limit()
        ? share
        : Quota.of(allowance, share.windowMicros(), Math.min(share.burst(), allowance));
  }

  /**
   * This JVM's share of the permit's quota. A share smaller than the request would deny every such
   * request while its headers promised some remaining, so it holds at least one: the fleet may then
   * admit one request per JVM a window, more than the limit. A bucket only needs the room (its
   * burst) to hold one: its limit is its rate, which stays the share's.
   */
  private Quota share(Permit permit) {
    Quota share = share(permit.quota());
    long cost = permit.cost();
    boolean bucket = permit.counters().algorithm() == Algorithm.TOKEN_BUCKET;
    if (share.burst() >= cost && (bucket || share.limit() >= cost)) {
      return share;
    }
    return Quota.of(
        bucket ? share.limit() : Math.max(cost, share.limit()),
        share.windowMicros(),
        Math.max(cost, share.burst()));
  }

  private Quota share(Quota quota) {
    int size = fleet.size();
    Shares current = shares;
    if (current.fleetSize != size) {
      current = new Shares(size);
      shares = current;
    }
    Quota share = current.byQuota.get(quota);
    if (share == null) {
      share = quota.share(size);
      current.byQuota.put(quota, share);
    }
    return share;
  }

  void close() {
    store.close();
  }

  private static final class Shares {
    final int fleetSize;
    final Map<Quota, Quota> byQuota = new ConcurrentHashMap<>();

    Shares(int fleetSize) {
      this.fleetSize = fleetSize;
    }
  }
}
