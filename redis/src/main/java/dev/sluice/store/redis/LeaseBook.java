package dev.sluice.store.redis;

import dev.sluice.metrics.LeaseStatus;
import dev.sluice.store.Clock;
import dev.sluice.store.Consistency;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The leases of local-first rules (docs/design.md, "Local-first decisions"): a permit is taken from
 * its key's {@link Lease} with no round trip; a lease running low is refilled in the background,
 * one that dies or sits idle gives back what it left ({@link LeaseCalls}). At most {@value
 * #MAX_LEASES} leases: beyond, permits go the exact way.
 */
final class LeaseBook {
  static final int MAX_LEASES = 100_000;

  /** What {@link #take} returns for a permit Redis has no room for: its verdict says so. */
  static final Grant DENIED = new Grant(0, 0, 0, 0, 0, 0);

  private final Clock clock;
  private final ShardBreakers breakers;
  private final LocalDenials denials;
  private final LeaseCalls calls;
  private final Map<String, Lease> leases = new ConcurrentHashMap<>();
  private final Map<String, LeaseTally> tallies = new ConcurrentHashMap<>();

  LeaseBook(Clock clock, ShardBreakers breakers, LocalDenials denials, LeaseCalls calls) {
    this.clock = clock;
    this.breakers = breakers;
    this.denials = denials;
    this.calls = calls;
  }

  /** Whether {@code permit} is decided from a lease: a local-first rule's, not delayed. */
  static boolean leased(Permit permit) {
    return ((RedisCounters) permit.counters()).localFirst && !permit.quota().isDelayed();
  }

  /**
   * Takes {@code permit} from its lease, refilling an empty one while the request waits (at most
   * until {@code deadline}); fills its verdict. Returns the grant it came from, {@link #DENIED}
   * when Redis has no room for it (denied, as Redis said), or null when a lease does not decide it
   * (a cold or slow identity: {@link Lease#takesExactly}; Redis unreachable; too many leases): it
   * then goes the exact way.
   *
   * @param request the request's permits, for the breaker's hold of a switch window
   */
  Grant take(
      Permit permit, String key, List<Permit> request, ConnectedClient current, long deadline) {
    Lease lease = leaseOf(key, permit);
    Grant grant = lease == null ? null : fromLease(lease, permit, key, request, current, deadline);
    if (grant == null) {
      LeaseTally tally = lease == null ? tallyOf((RedisCounters) permit.counters()) : lease.tally;
      tally.exact.add(permit.cost());
    }
    return grant;
  }

  private Grant fromLease(
      Lease lease,
      Permit permit,
      String key,
      List<Permit> request,
      ConnectedClient current,
      long deadline) {
    long now = clock.micros();
    for (int attempt = 0; attempt < 3; attempt++) {
      Grant grant = lease.spend(permit.cost(), now, calls);
      if (grant != null) {
        spent(lease, grant, permit, now, current);
        return grant;
      }
      if (attempt == 0 && lease.takesExactly(now)) {
        return null;
      }
      if (attempt > 0 && denials.deny(key, permit)) {
        return DENIED;
      }
      Breaker breaker = breakers.of(key);
      if (current == null || breaker.isOpen() || breaker.holds(request)) {
        return null;
      }
      try {
        current.pipeliner.await(calls.fetch(lease, current, permit.cost()), deadline);
      } catch (JedisException e) {
        return null;
      }
      now = clock.micros();
    }
    return null;
  }

  /** Puts back what {@link #take} took for a request that was denied after all. */
  void putBack(Permit permit, Grant grant) {
    boolean kept = grant.putBack(permit.cost());
    LeaseTally tally = tallies.get(permit.counters().ruleId());
    if (tally != null) { // null: a reload dropped the rule meanwhile
      tally.spent.add(-permit.cost());
      if (!kept) {
        tally.diedUnspent.add(permit.cost());
      }
    }
  }

  /**
   * The lease of {@code key} under the permit's quota, made if need be; null when none may be made.
   * A lease of another quota (a reload made the rule's quotas anew, or the identity changed tier)
   * ends, giving back what it holds.
   */
  private Lease leaseOf(String key, Permit permit) {
    Lease lease = leases.get(key);
    if (lease != null && lease.quota != permit.quota() && forget(lease)) {
      lease.end(clock.micros(), calls);
      lease = leases.get(key);
    }
    if (lease == null) {
      if (leases.size() >= MAX_LEASES || permit.cost() > calls.cap(permit.quota())) {
        return null;
      }
      RedisCounters counters = (RedisCounters) permit.counters();
      Lease made = new Lease(key, counters, permit.quota(), tallyOf(counters), clock.micros());
      lease = leases.putIfAbsent(key, made);
      lease = lease == null ? made : lease;
    }
    return lease.quota == permit.quota() ? lease : null;
  }

  private LeaseTally tallyOf(RedisCounters counters) {
    return tallies.computeIfAbsent(counters.ruleId(), id -> new LeaseTally());
  }

  private void spent(Lease lease, Grant grant, Permit permit, long now, ConnectedClient current) {
    lease.tally.spent.add(permit.cost());
    long left = Math.max(0, grant.left());
    permit.verdict().set(true, grant.remaining + left, grant.resetAt - now, 0);
    if (current != null
        && lease.fetching() == null
        && lease.wantsNext(grant)
        && !breakers.of(lease.key).isOpen()) {
      calls.fetch(lease, current, 1); // ahead of need: nobody waits for it
    }
  }

  /** Drops {@code lease} from the book; false if it was dropped already. */
  private boolean forget(Lease lease) {
    boolean removed = leases.remove(lease.key, lease);
    lease.forget();
    return removed;
  }

  /** Ends grants that died or sat idle for a sync, and forgets leases left empty and idle. */
  void sweep() {
    long now = clock.micros();
    for (Lease lease : leases.values()) {
      if (lease.sweep(now, calls)) {
        forget(lease);
      }
    }
  }

  /**
   * Forgets (giving back) the leases of rules not in {@code live}, or live with another consistency
   * (exact now, or another sync, which a lease keeps from when it was made).
   */
  void retainOnly(Collection<? extends Counters> live) {
    Map<Counters, Consistency> kept = new HashMap<>();
    Set<String> rules = new HashSet<>();
    for (Counters c : live) {
      RedisCounters counters = (RedisCounters) c;
      kept.put(counters.local, counters.consistency);
      if (counters.localFirst) {
        rules.add(counters.ruleId());
      }
    }
    tallies.keySet().retainAll(rules);
    long now = clock.micros();
    for (Lease lease : leases.values()) {
      boolean same = lease.counters.consistency.equals(kept.get(lease.counters.local));
      if (!same && forget(lease)) {
        lease.end(now, calls);
      }
    }
  }

  /** Each local-first rule's leases by rule id, as they stand. */
  Map<String, LeaseStatus> stats() {
    Map<String, int[]> counts = new TreeMap<>();
    Map<String, long[]> held = new TreeMap<>();
    for (Lease lease : leases.values()) {
      String rule = lease.counters.ruleId();
      counts.computeIfAbsent(rule, r -> new int[1])[0]++;
      held.computeIfAbsent(rule, r -> new long[1])[0] += lease.held();
    }
    Map<String, LeaseStatus> stats = new TreeMap<>();
    for (Map.Entry<String, LeaseTally> e : tallies.entrySet()) {
      int[] n = counts.get(e.getKey());
      long[] h = held.get(e.getKey());
      stats.put(e.getKey(), e.getValue().stats(n == null ? 0 : n[0], h == null ? 0 : h[0]));
    }
    return stats;
  }
}
