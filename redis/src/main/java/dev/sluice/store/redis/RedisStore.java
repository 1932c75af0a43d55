package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.metrics.LeaseStatus;
import dev.sluice.metrics.RoundTrips;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import dev.sluice.store.Consistency;
import dev.sluice.store.Counters;
import dev.sluice.store.Hash128;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Limits shared by a fleet: every decision is one atomic Lua script per identity on Redis
 * (standalone, Sentinel or Cluster), timed by Redis TIME, so JVM clocks never matter.
 *
 * <p>Why it looks like this. All rules of one identity share a hash tag, so they are checked in one
 * script call, all or nothing. Rules of different identities (per IP and per API key, say) live on
 * different slots and take one call each, in order; a later denial refunds what the earlier calls
 * took. A shadow rule's permit, taken alone, is a call of its own in the first call's round trip
 * ({@link AloneCalls}). A key Redis has just denied is denied here until Redis said it would allow
 * it ({@link LocalDenials}), which keeps floods off the shard. When Redis fails or times out, a
 * {@link Breaker} stops calling it and each rule decides by its {@code on_error}: fail_open takes
 * this JVM's share of the limit from a local store ({@link LocalShare}), fail_closed denies. When
 * Redis answers again, what was admitted locally is charged to it before limits are shared again
 * ({@link Handover}), so the switch admits no second limit on top of the local shares. Connecting,
 * handing over and the fleet's heartbeat run on their own thread ({@link Maintenance}).
 *
 * <p>A local-first rule's permits are taken from leases of permits Redis granted ahead of need
 * ({@link LeaseBook}), with no round trip on the common path; exact rules' permits never meet them.
 */
public final class RedisStore implements Store {
  /** How long a refund (or a lease's give-back) may wait in the queue before it is dropped. */
  static final long REFUND_PATIENCE_NANOS = 1_000_000_000L;

  /**
   * How often leases that died or sat idle for their sync give back what they left: unspent
   * permits come back within sync + this.
   */
  static final long SWEEP_MILLIS = 100;

  private final String prefix;
  final ScriptTime time;
  final ShardBreakers breakers;
  final LocalDenials denials;
  final LocalShare share;
  private final LastAnswers answers;
  private final Fleet fleet;
  private final RoundTrips roundTrips;
  private final Maintenance maintenance;
  private final LeaseBook leases;

  /**
   * A store whose auto fleet ({@code fleetSize} 0) is taken for one JVM at least.
   *
   * @param fleetSize JVMs sharing the limits, or 0 to count them through Redis heartbeats
   * @param clock this JVM's clock: only for local decisions, never for counting in Redis
   * @param time what the scripts take as now: {@link ScriptTime#REDIS} but in tests
   * @param timeoutMillis the most a decision waits for Redis before deciding locally; give {@code
   *     redis} a socket timeout no longer than this (as {@link #open} does): a decision that finds
   *     a connection free sends its own call and waits on the socket
   */
  public RedisStore(
      UnifiedJedis redis,
      String name,
      String prefix,
      int fleetSize,
      Clock clock,
      long maxLocalKeys,
      ScriptTime time,
      long timeoutMillis) {
    this(() -> redis, name, prefix, fleetSize, 1, clock, maxLocalKeys, time, timeoutMillis);
  }

  private RedisStore(
      Supplier<UnifiedJedis> connector,
      String name,
      String prefix,
      int fleetSize,
      int fleetMin,
      Clock clock,
      long maxLocalKeys,
      ScriptTime time,
      long timeoutMillis) {
    this.prefix = prefix;
    this.time = time;
    this.breakers = new ShardBreakers(clock, name);
    this.denials = new LocalDenials(clock);
    this.fleet = new Fleet(prefix, fleetSize, fleetMin);
    LocalLedger ledger = new LocalLedger(clock);
    this.answers = new LastAnswers();
    this.share =
        new LocalShare(new MemoryStore(clock, maxLocalKeys, 1_000), fleet, ledger, answers, clock);
    this.roundTrips = new RoundTrips(clock::micros);
    this.maintenance =
        new Maintenance(
            connector, timeoutMillis, breakers, denials, ledger, fleet, time, roundTrips);
    this.leases =
        new LeaseBook(
            clock,
            breakers,
            denials,
            new LeaseCalls(clock, fleet, time, breakers, denials, answers, maintenance::client));
    maintenance.every(SWEEP_MILLIS, leases::sweep);
  }

  /** {@link #open(RedisSettings, String, int, int, Clock, long)} of a fleet of one JVM at least. */
  public static RedisStore open(
      RedisSettings settings, String prefix, int fleetSize, Clock clock, long maxLocalKeys) {
    return open(settings, prefix, fleetSize, 1, clock, maxLocalKeys);
  }

  /**
   * Connects as {@code settings} say. Redis being unreachable now is fine (a Redis Cluster client
   * cannot even be made without a node): rules decide locally, and connecting is retried every
   * second.
   *
   * @param fleetSize JVMs sharing the limits, or 0 to count them through Redis heartbeats
   * @param fleetMin the fewest JVMs a counted fleet is taken for, also before it could be counted
   */
  public static RedisStore open(
      RedisSettings settings,
      String prefix,
      int fleetSize,
      int fleetMin,
      Clock clock,
      long maxLocalKeys) {
    return new RedisStore(
        settings::connect,
        settings.toString(),
        prefix,
        fleetSize,
        fleetMin,
        clock,
        maxLocalKeys,
        ScriptTime.REDIS,
        settings.timeoutMillis());
  }

  @Override
  public Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
    return counters(ruleId, algorithm, windowMicros, Consistency.EXACT);
  }

  /**
   * A local-first rule's permits are taken from leases ({@link LeaseBook}) but when shadow (taken
   * alone) or delayed (a queue needs the slot Redis reserves): those stay exact.
   */
  @Override
  public Counters counters(
      String ruleId, Algorithm algorithm, long windowMicros, Consistency consistency) {
    return new RedisCounters(share.counters(ruleId, algorithm, windowMicros), consistency);
  }

  @Override
  public void acquire(List<Permit> permits) {
    takeTogether(permits, null);
  }

  /**
   * The permits of {@code alone} go, each in a call of its own, in the round trip of the first call
   * of {@code together} that Redis is asked for, or in one of their own if there is none; one
   * deadline bounds them all.
   */
  @Override
  public void acquire(List<Permit> together, List<Permit> alone) {
    if (alone.isEmpty()) {
      if (!together.isEmpty()) {
        takeTogether(together, null);
      }
      return;
    }
    AloneCalls calls = new AloneCalls(this, alone);
    try {
      if (!together.isEmpty()) {
        takeTogether(together, calls);
      }
      calls.decide();
    } finally {
      calls.endProbes();
    }
  }

  /** Takes {@code permits} all or none; the first call sent carries {@code alone}'s, if any. */
  private void takeTogether(List<Permit> permits, AloneCalls alone) {
    String[] keys = keysOf(permits);
    boolean leased = false;
    for (int i = 0; i < keys.length; i++) {
      if (denials.deny(keys[i], permits.get(i))) {
        return;
      }
      leased |= LeaseBook.leased(permits.get(i));
    }
    ConnectedClient current = maintenance.client();
    // One budget for the whole decision, however many identities (calls) it takes.
    long deadline = current == null ? 0 : current.pipeliner.deadlineFromNow();
    if (!leased) {
      takeExactly(permits, keys, alone, current, deadline);
    } else if (permits.size() == 1) {
      if (leases.take(permits.get(0), keys[0], permits, current, deadline) == null) {
        takeExactly(permits, keys, alone, current, deadline);
      }
    } else {
      takeFromLeasesFirst(permits, keys, alone, current, deadline);
    }
  }

  /**
   * Takes the permits of local-first rules from their leases, then the others (and those no lease
   * could decide) the exact way; a denial either way puts back what the leases gave.
   */
  private void takeFromLeasesFirst(
      List<Permit> permits,
      String[] keys,
      AloneCalls alone,
      ConnectedClient current,
      long deadline) {
    Grant[] taken = new Grant[keys.length];
    List<Permit> exact = new ArrayList<>(keys.length);
    List<String> exactKeys = new ArrayList<>(keys.length);
    for (int i = 0; i < keys.length; i++) {
      Permit permit = permits.get(i);
      Grant grant =
          LeaseBook.leased(permit) ? leases.take(permit, keys[i], permits, current, deadline) : null;
      if (grant == LeaseBook.DENIED) {
        putBack(permits, taken);
        return;
      }
      taken[i] = grant;
      if (grant == null) {
        exact.add(permit);
        exactKeys.add(keys[i]);
      }
    }
    if (exact.isEmpty()) {
      return;
    }
    takeExactly(exact, exactKeys.toArray(new String[0]), alone, current, deadline);
    for (Permit permit : exact) {
      if (!permit.verdict().allowed()) {
        putBack(permits, taken);
        return;
      }
    }
  }

  private void putBack(List<Permit> permits, Grant[] taken) {
    for (int i = 0; i < taken.length; i++) {
      if (taken[i] != null && taken[i] != LeaseBook.DENIED) {
        leases.putBack(permits.get(i), taken[i]);
      }
    }
  }

  /**
   * Takes {@code permits} all or none from Redis, a call per identity, within {@code deadline};
   * the first call sent carries {@code alone}'s, if any.
   */
  private void takeExactly(
      List<Permit> permits,
      String[] keys,
      AloneCalls alone,
      ConnectedClient current,
      long deadline) {
    List<IdentityCall> calls = IdentityCall.byIdentity(permits, keys);
    if (current == null) {
      decideLocally(calls, 0);
      return;
    }
    for (int done = 0; done < calls.size(); done++) {
      IdentityCall call = calls.get(done);
      Breaker breaker = breakers.of(call.keys.get(0));
      Breaker.Pass pass = pass(current, breaker, call.permits);
      if (pass == Breaker.Pass.LOCAL) {
        decideLocally(calls, done);
        return;
      }
      boolean answered = false;
      try {
        // The pipeliner tells the breaker how Redis answered; a timeout alone is not a failure.
        PendingCall sent =
            new PendingCall(
                Script.ACQUIRE, breaker, call.keys, call.acquireArgs(time.arg()), deadline);
        call.fill(
            current.pipeliner.run(
                sent,
                alone == null
                    ? Collections.<PendingCall>emptyList()
                    : alone.along(current, deadline),
                deadline));
        answered = true;
      } catch (JedisException e) {
        decideLocally(calls, done);
        return;
      } finally {
        breaker.callEnded(pass, answered);
      }
      if (!call.allowed()) {
        call.rememberDenials(denials);
        refund(current, calls.subList(0, done));
        return;
      }
      answers.allowed(call);
    }
  }

  /** The client decisions go through, or null while Redis has not been reached. */
  ConnectedClient client() {
    return maintenance.client();
  }

  /**
   * What a call of {@code permits} to the master of {@code breaker} may do. A probe that finds
   * Redis owed what was admitted here is decided locally: Redis must learn that before it decides
   * again, and the handover is the probe, off the request's thread. A closed breaker may still hold
   * the window it closed in for the local share ({@link Breaker#holds}).
   */
  Breaker.Pass pass(ConnectedClient current, Breaker breaker, List<Permit> permits) {
    Breaker.Pass pass = breaker.pass();
    if (pass == Breaker.Pass.PROBE && maintenance.owes(breaker)) {
      maintenance.handOverLater(current, breaker);
      return Breaker.Pass.LOCAL;
    }
    return pass == Breaker.Pass.CALL && breaker.holds(permits) ? Breaker.Pass.LOCAL : pass;
  }

  /** The key of each permit, index for index. */
  String[] keysOf(List<Permit> permits) {
    String[] keys = new String[permits.size()];
    String hashed = null;
    Hash128 hash = null;
    for (int i = 0; i < keys.length; i++) {
      Permit p = permits.get(i);
      if (!p.identity().equals(hashed)) {
        // Rules of one identity usually follow each other: its hash serves them all.
        hashed = p.identity();
        hash = RedisKey.hash(hashed);
      }
      keys[i] = ((RedisCounters) p.counters()).key(prefix, hash);
    }
    return keys;
  }

  /**
   * Asks Redis alone, one peek.lua call per identity (its keys share a slot), sent at once rather
   * than queued and bounded by one decision's budget. Being no decision, it leaves alone what
   * decisions keep: breakers, local denials, the local share, round-trip metrics.
   */
  @Override
  public void peek(List<Permit> permits) {
    if (permits.isEmpty()) {
      return;
    }
    ConnectedClient current = maintenance.client();
    if (current == null) {
      throw new JedisConnectionException("Redis has not been reached yet");
    }
    List<IdentityCall> calls = IdentityCall.byIdentity(permits, keysOf(permits));
    Budget.within(
        current.pipeliner.deadlineFromNow(),
        () -> {
          for (IdentityCall call : calls) {
            call.peek(current.redis, time.arg());
          }
        });
  }

  /** Redis cannot answer for calls[from..]; calls before it were taken in Redis. */
  private void decideLocally(List<IdentityCall> calls, int from) {
    ConnectedClient current = maintenance.client();
    List<Permit> rest = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (IdentityCall call : calls.subList(from, calls.size())) {
      rest.addAll(call.permits);
      keys.addAll(call.keys);
    }
    share.acquire(rest, keys);
    for (Permit p : rest) {
      if (!p.verdict().allowed() && current != null) {
        refund(current, calls.subList(0, from));
        return;
      }
    }
  }

  /**
   * Gives back what earlier calls of a denied request took: queued for the senders, not waited for
   * (the request is decided), best effort and never sent twice. Each refund undoes only its own
   * take, whenever it runs; one still queued after {@link #REFUND_PATIENCE_NANOS} is dropped, and
   * its take stands, erring toward the limit.
   */
  private void refund(ConnectedClient current, List<IdentityCall> taken) {
    long deadline = System.nanoTime() + REFUND_PATIENCE_NANOS;
    for (IdentityCall call : taken) {
      current.pipeliner.submit(
          Script.REFUND,
          breakers.of(call.keys.get(0)),
          call.keys,
          call.refundArgs(time.arg()),
          deadline);
    }
  }

  /**
   * Queues refund.lua for each permit Redis allowed, as a denied request's refunds are queued: not
   * waited for, dropped after {@link #REFUND_PATIENCE_NANOS}. A permit decided in this JVM (Redis
   * unreachable) took from the local share, and is given back there, at once.
   */
  @Override
  public void refund(List<Permit> permits) {
    for (Permit p : permits) {
      if (p.verdict().allowed() && p.decidedLocally() && p.take() != 0) {
        share.refund(p);
      }
    }
    ConnectedClient current = maintenance.client();
    if (current == null) {
      return;
    }
    long deadline = System.nanoTime() + REFUND_PATIENCE_NANOS;
    for (Permit p : permits) {
      if (p.verdict().allowed() && !p.decidedLocally() && p.take() != 0) {
        List<Permit> one = Collections.singletonList(p);
        String[] keys = keysOf(one);
        current.pipeliner.submit(
            Script.REFUND,
            breakers.of(keys[0]),
            Arrays.asList(keys),
            IdentityCall.refundArgs(time.arg(), one),
            deadline);
      }
    }
  }

  @Override
  public void retainOnly(Collection<? extends Counters> live) {
    List<Counters> locals = new ArrayList<>();
    for (Counters c : live) {
      locals.add(((RedisCounters) c).local);
    }
    share.retainOnly(locals);
    leases.retainOnly(live);
    denials.forgetAll();
  }

  /**
   * Each local-first rule's leases in this JVM, by rule id: what it holds and how the permits it
   * leased went (docs/design.md, "Local-first decisions"). Empty without local-first rules.
   */
  public Map<String, LeaseStatus> leases() {
    return leases.stats();
  }

  /** The JVMs this store believes share the limits. */
  public int fleetSize() {
    return fleet.size();
  }

  @Override
  public StoreStatus status() {
    return StoreStatus.redis(roundTrips, breakers.states(), fleet.size()).withLeases(leases());
  }

  @Override
  public void close() {
    leases.retainOnly(Collections.<Counters>emptyList()); // gives back, sent before the senders end
    maintenance.close();
    share.close();
  }
}
