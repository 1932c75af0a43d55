package dev.sluice.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Where Redis is and how to talk to it, as a config names it: one server ({@code url}), a Cluster
 * (seed nodes) or a Sentinel group (master name and sentinels), with the timeout that bounds every
 * wait and the pool's size. Only the value: the Redis module ({@link RedisModule}) connects to it,
 * so config reads, compares and logs a Redis store without a Redis client on the class path.
 */
public final class RedisTarget {
  private final List<URI> nodes;
  private final String sentinelMaster;
  private final boolean cluster;
  private final int timeoutMillis;
  private final int poolSize;

  private RedisTarget(
      List<URI> nodes, String sentinelMaster, boolean cluster, int timeoutMillis, int poolSize) {
    this.nodes = Collections.unmodifiableList(new ArrayList<>(nodes));
    this.sentinelMaster = sentinelMaster;
    this.cluster = cluster;
    this.timeoutMillis = timeoutMillis;
    this.poolSize = poolSize;
  }

  public static RedisTarget standalone(URI url, int timeoutMillis, int poolSize) {
    return new RedisTarget(Collections.singletonList(url), null, false, timeoutMillis, poolSize);
  }

  public static RedisTarget cluster(List<URI> seeds, int timeoutMillis, int poolSize) {
    return new RedisTarget(seeds, null, true, timeoutMillis, poolSize);
  }

  public static RedisTarget sentinel(
      String master, List<URI> sentinels, int timeoutMillis, int poolSize) {
    return new RedisTarget(sentinels, master, false, timeoutMillis, poolSize);
  }

  /**
   * Parses {@code redis://[user[:password]@]host[:port][/db]} or {@code rediss://} (TLS).
   *
   * @throws IllegalArgumentException with a message fit for the user
   */
  public static URI parseUrl(String text) {
    try {
      URI uri = new URI(text.trim());
      if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())
          || uri.getHost() == null) {
        throw new IllegalArgumentException(
            "must look like redis://host:port or rediss://user:password@host:port/0");
      }
      database(uri);
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("is not a URL: " + e.getReason());
    }
  }

  /** The database number a URL's path names; 0 when it names none. */
  public static int database(URI uri) {
    String path = uri.getPath();
    if (path == null || path.isEmpty() || path.equals("/")) {
      return 0;
    }
    try {
      return Integer.parseInt(path.substring(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the path of a Redis URL is a database number");
    }
  }

  /**
   * The same Redis, credentials included, with other limits: a client off the request path (the
   * rules published in Redis) waits longer than a decision and needs a connection, not a pool.
   */
  public RedisTarget withLimits(int timeoutMillis, int poolSize) {
    return new RedisTarget(nodes, sentinelMaster, cluster, timeoutMillis, poolSize);
  }

  /** The server, the seed nodes or the sentinels, as given, credentials in the first one's URL. */
  public List<URI> nodes() {
    return nodes;
  }

  /** The master's name for a Sentinel group; null otherwise. */
  public String sentinelMaster() {
    return sentinelMaster;
  }

  public boolean cluster() {
    return cluster;
  }

  public int timeoutMillis() {
    return timeoutMillis;
  }

  public int poolSize() {
    return poolSize;
  }

  /** Everything but credentials, for logs. */
  public String describe() {
    return this + " timeout " + timeoutMillis + "ms pool " + poolSize;
  }

  /** Equal settings in everything, credentials included (a changed password is a new store). */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RedisTarget)) {
      return false;
    }
    RedisTarget other = (RedisTarget) o;
    return nodes.equals(other.nodes)
        && Objects.equals(sentinelMaster, other.sentinelMaster)
        && cluster == other.cluster
        && timeoutMillis == other.timeoutMillis
        && poolSize == other.poolSize;
  }

  @Override
  public int hashCode() {
    return Objects.hash(nodes, sentinelMaster, cluster, timeoutMillis, poolSize);
  }

  /** Names the target in logs: hosts and ports, never a password. */
  @Override
  public String toString() {
    List<String> hosts = new ArrayList<>();
    for (URI node : nodes) {
      hosts.add(node.getHost() + ":" + (node.getPort() < 0 ? 6379 : node.getPort()));
    }
    String kind =
        cluster ? "cluster " : sentinelMaster != null ? "sentinel " + sentinelMaster + " via " : "";
    return kind + String.join(",", hosts);
  }
}
