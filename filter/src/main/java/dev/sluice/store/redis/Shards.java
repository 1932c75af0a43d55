package dev.sluice.store.redis;

import dev.sluice.store.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import redis.clients.jedis.HostAndPort;

/**
 * A {@link Breaker} per Redis master. On Redis Cluster each master holds its own slots, so one that
 * fails sends only its own keys to local decisions while the others go on counting theirs; a
 * cluster-wide breaker would make every rule of every identity fall back to its local share (or,
 * failing closed, deny) until the failover ends. A server without slots (standalone, Sentinel) is
 * one master with one breaker, the whole one, which also counts failed attempts to connect: until
 * connected, no key has a master.
 */
final class Shards {
  private final Clock clock;
  private final String name;
  private final Breaker whole;
  private final Map<HostAndPort, Breaker> masters = new ConcurrentHashMap<>();
  private volatile Function<String, HostAndPort> masterOfKey = key -> null;

  Shards(Clock clock, String name) {
    this.clock = clock;
    this.name = name;
    this.whole = new Breaker(clock, name);
  }

  /** From now on a key's breaker is its master's, as {@code masterOfKey} tells (null: unknown). */
  void locate(Function<String, HostAndPort> masterOfKey) {
    this.masterOfKey = masterOfKey;
  }

  /** The breaker of the master that holds {@code key}. */
  Breaker of(String key) {
    HostAndPort master = masterOfKey.apply(key);
    return master == null
        ? whole
        : masters.computeIfAbsent(master, m -> new Breaker(clock, name + ", master " + m));
  }

  /** The breaker of the whole server, or of the cluster before it is connected. */
  Breaker whole() {
    return whole;
  }

  /** Whether {@code key}'s master is failing and not being probed through {@code probing}. */
  boolean unreachable(String key, Breaker probing) {
    Breaker breaker = of(key);
    return breaker != probing && breaker.isOpen();
  }
}
