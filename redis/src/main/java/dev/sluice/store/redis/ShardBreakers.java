package dev.sluice.store.redis;

import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import redis.clients.jedis.HostAndPort;

/**
 * A {@link Breaker} per shard of Redis. On Redis Cluster each master holds its own slots, so one
 * that fails sends only its own keys to local decisions while the others go on counting theirs; a
 * cluster-wide breaker would make every rule of every identity fall back to its local share (or,
 * failing closed, deny) until the failover ends. A server without slots (standalone, Sentinel) is
 * one shard with one breaker, the whole one, which also counts failed attempts to connect: until
 * connected, no key has a master.
 *
 * <p>A breaker belongs to the slots, not to an address. When a replica is promoted in a failover,
 * its address is new, but the slots and what this JVM admitted locally for them while the old
 * master was down are the same: the promoted master inherits the breaker its slots had, still open,
 * so its first answer is the handover's and no key is admitted a second limit on top of its local
 * share. A slot moved to a master already known (resharding) simply takes that master's.
 */
final class ShardBreakers {
  /** Where keys live on Redis Cluster, as the client's own slot map says. */
  interface SlotMap {
    int slotOf(String key);

    /** The master serving {@code slot}, or null while the map has none. */
    HostAndPort masterOf(int slot);
  }

  private static final int SLOTS = 16_384;

  private final Clock clock;
  private final String name;
  private final Breaker whole;
  private final Map<HostAndPort, Breaker> byMaster = new ConcurrentHashMap<>();

  /** The breaker each slot was last seen with: what a master new to this JVM inherits. */
  private final AtomicReferenceArray<Breaker> bySlot = new AtomicReferenceArray<>(SLOTS);

  private volatile SlotMap slots;

  ShardBreakers(Clock clock, String name) {
    this.clock = clock;
    this.name = name;
    this.whole = new Breaker(clock, name);
  }

  /** From now on a key's breaker is its shard's, as {@code slots} tells. */
  void locate(SlotMap slots) {
    this.slots = slots;
  }

  /** The breaker of the shard that holds {@code key}. */
  Breaker of(String key) {
    SlotMap map = slots;
    if (map == null) {
      return whole;
    }
    int slot = map.slotOf(key);
    HostAndPort master = map.masterOf(slot);
    if (master == null) {
      return whole;
    }
    Breaker breaker = byMaster.get(master);
    if (breaker == null) {
      breaker = byMaster.computeIfAbsent(master, m -> inherit(previous(map, slot, m), m));
    }
    if (bySlot.get(slot) != breaker) {
      bySlot.set(slot, breaker);
    }
    return breaker;
  }

  /**
   * The breaker {@code slot} was last seen with, or, if this JVM never placed a key in it, that of
   * another slot {@code master} now serves: the first key asked for after a promotion is as likely
   * of a slot never seen before, and the promoted replica must inherit its slots' open breaker all
   * the same, or this JVM would decide from Redis at once without handing over or holding the
   * window (a fleet simulation left 17 of 50 instances so). Read once per new master.
   */
  private Breaker previous(SlotMap map, int slot, HostAndPort master) {
    Breaker previous = bySlot.get(slot);
    for (int other = 0; previous == null && other < SLOTS; other++) {
      if (master.equals(map.masterOf(other))) {
        previous = bySlot.get(other);
      }
    }
    return previous;
  }

  private Breaker inherit(Breaker previous, HostAndPort master) {
    String target = name + ", master " + master;
    if (previous == null) {
      return new Breaker(clock, target);
    }
    previous.servedBy(target);
    return previous;
  }

  /** The breaker of the whole server, or of the cluster before it is connected. */
  Breaker whole() {
    return whole;
  }

  /**
   * Each shard's breaker state ({@link StoreStatus#CLOSED}, {@link StoreStatus#OPEN} or {@link
   * StoreStatus#PROBING}) by the name its log lines give it: the whole server's, then every
   * master's in order, each once however many addresses served its slots. Once the slot map is
   * known the shards are its masters: the whole breaker, which then decides only keys whose slot has
   * no master, is one of them only while it is not closed or no master is known yet. Counted among
   * them closed, it would keep a cluster whose every master is down from ever looking down.
   */
  Map<String, String> states() {
    Map<String, String> masters = new TreeMap<>();
    Set<Breaker> seen = Collections.newSetFromMap(new IdentityHashMap<Breaker, Boolean>());
    for (Breaker breaker : byMaster.values()) {
      if (seen.add(breaker)) {
        masters.put(breaker.target(), breaker.state());
      }
    }
    Map<String, String> states = new LinkedHashMap<>();
    if (slots == null || masters.isEmpty() || !whole.state().equals(StoreStatus.CLOSED)) {
      states.put(whole.target(), whole.state());
    }
    states.putAll(masters);
    return states;
  }

  /** Whether any shard's breaker is open. */
  boolean anyOpen() {
    if (whole.isOpen()) {
      return true;
    }
    for (Breaker breaker : byMaster.values()) {
      if (breaker.isOpen()) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code key}'s master is failing and not being probed through {@code probing}. */
  boolean unreachable(String key, Breaker probing) {
    Breaker breaker = of(key);
    return breaker != probing && breaker.isOpen();
  }
}
