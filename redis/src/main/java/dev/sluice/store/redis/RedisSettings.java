package dev.sluice.store.redis;

import dev.sluice.store.RedisTarget;
import dev.sluice.support.Daemons;
import java.io.UnsupportedEncodingException;
import java.net.URI;
import java.net.URLDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.PooledConnectionProvider;
import redis.clients.jedis.providers.SentineledConnectionProvider;

/**
 * How Jedis talks to a {@link RedisTarget}: one server ({@code url}), a Cluster (seed nodes) or a
 * Sentinel group (master name and sentinels). Every wait is bounded by {@code timeout}: connecting,
 * borrowing a pooled connection and the command itself, so a slow Redis costs a request at most
 * that much before the breaker takes over.
 */
public final class RedisSettings {
  /** Idle connections a pool keeps per node, however long idle. */
  static final int KEPT_IDLE = 2;

  /** How long a connection beyond those may stay idle before it is closed. */
  static final Duration IDLE_CLOSE = Duration.ofMinutes(1);

  private final RedisTarget target;

  private RedisSettings(RedisTarget target) {
    this.target = target;
  }

  public static RedisSettings of(RedisTarget target) {
    return new RedisSettings(target);
  }

  public static RedisSettings standalone(URI url, int timeoutMillis, int poolSize) {
    return of(RedisTarget.standalone(url, timeoutMillis, poolSize));
  }

  public static RedisSettings cluster(List<URI> seeds, int timeoutMillis, int poolSize) {
    return of(RedisTarget.cluster(seeds, timeoutMillis, poolSize));
  }

  public static RedisSettings sentinel(
      String master, List<URI> sentinels, int timeoutMillis, int poolSize) {
    return of(RedisTarget.sentinel(master, sentinels, timeoutMillis, poolSize));
  }

  /** The same Redis, credentials included, with other limits (see {@link RedisTarget#withLimits}). */
  RedisSettings withLimits(int timeoutMillis, int poolSize) {
    return of(target.withLimits(timeoutMillis, poolSize));
  }

  /**
   * Connects; the client reconnects by itself later, and never throws here for a down server. The
   * threads Jedis and its pools start (Sentinel listeners, the idle-connection evictor) are {@link
   * Daemons#detached} from the calling thread, which may be a web application's.
   */
  UnifiedJedis connect() {
    return Daemons.detached(this::connectHere);
  }

  private UnifiedJedis connectHere() {
    JedisClientConfig client = clientConfig();
    GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
    int timeoutMillis = target.timeoutMillis();
    pool.setMaxTotal(target.poolSize());
    pool.setMaxIdle(target.poolSize());
    pool.setBlockWhenExhausted(true);
    pool.setMaxWait(Duration.ofMillis(timeoutMillis));
    idleConnectionsClose(pool);
    if (target.cluster()) {
      return ClusterClient.connect(hostsAndPorts(), client, pool, timeoutMillis);
    }
    ConnectionProvider connections =
        target.sentinelMaster() != null
            ? new SentineledConnectionProvider(
                target.sentinelMaster(), client, pool, hostsAndPorts(), client)
            : new PooledConnectionProvider(hostAndPort(target.nodes().get(0)), client, pool);
    return new UnifiedJedis(new BudgetedConnections(connections, timeoutMillis));
  }

  /**
   * Connections idle for {@link #IDLE_CLOSE} beyond {@link #KEPT_IDLE} a node are closed: a pool
   * grows to what a burst needed, and thousands of JVMs keeping every connection they ever opened
   * would pass Redis's default of 10,000 clients (docs/scaling.md).
   */
  static void idleConnectionsClose(GenericObjectPoolConfig<Connection> pool) {
    idleConnectionsClose(pool, IDLE_CLOSE);
  }

  /** As above, after {@code idle}: for tests, which cannot wait minutes. */
  static void idleConnectionsClose(GenericObjectPoolConfig<Connection> pool, Duration idle) {
    pool.setMinIdle(KEPT_IDLE);
    pool.setSoftMinEvictableIdleDuration(idle);
    pool.setTimeBetweenEvictionRuns(idle.dividedBy(2));
    pool.setNumTestsPerEvictionRun(-2); // half the idle ones a run, whatever the pool's size
  }

  /** How to log in and talk to every node: as the first URL says. */
  JedisClientConfig clientConfig() {
    URI uri = target.nodes().get(0);
    DefaultJedisClientConfig.Builder config =
        DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(target.timeoutMillis())
            .socketTimeoutMillis(target.timeoutMillis())
            .clientName("sluice")
            .ssl("rediss".equals(uri.getScheme()))
            .database(RedisTarget.database(uri));
    // Split before decoding: an encoded ':' belongs to the user name or password it is in.
    String userInfo = uri.getRawUserInfo();
    if (userInfo != null) {
      int colon = userInfo.indexOf(':');
      if (colon < 0) {
        config.password(decode(userInfo));
      } else {
        if (colon > 0) {
          config.user(decode(userInfo.substring(0, colon)));
        }
        config.password(decode(userInfo.substring(colon + 1)));
      }
    }
    return config.build();
  }

  /** Percent-decodes a part of a URL; a '+' stays a '+', as URLs (unlike forms) mean it. */
  private static String decode(String part) {
    try {
      return URLDecoder.decode(part.replace("+", "%2B"), "UTF-8");
    } catch (UnsupportedEncodingException e) {
      throw new AssertionError("every JVM has UTF-8", e);
    }
  }

  /**
   * The seed nodes, in an order of this client's own: the cluster client asks the first seed that
   * answers for the slot map every {@link #TOPOLOGY_REFRESH}, on a new connection, so a fleet whose
   * JVMs all listed the seeds alike would send every refresh to one node (2,000 JVMs: a fifth of
   * its core, see docs/scaling.md).
   */
  Set<HostAndPort> hostsAndPorts() {
    List<URI> order = new ArrayList<>(target.nodes());
    Collections.shuffle(order);
    Set<HostAndPort> hosts = new LinkedHashSet<>();
    for (URI node : order) {
      hosts.add(hostAndPort(node));
    }
    return hosts;
  }

  private static HostAndPort hostAndPort(URI uri) {
    return new HostAndPort(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
  }

  int timeoutMillis() {
    return target.timeoutMillis();
  }

  /** Everything but credentials, for logs. */
  public String describe() {
    return target.describe();
  }

  /** Equal settings in everything, credentials included (a changed password is a new store). */
  @Override
  public boolean equals(Object o) {
    return o instanceof RedisSettings && target.equals(((RedisSettings) o).target);
  }

  @Override
  public int hashCode() {
    return target.hashCode();
  }

  /** Names the target in logs: hosts and ports, never a password. */
  @Override
  public String toString() {
    return target.toString();
  }
}
