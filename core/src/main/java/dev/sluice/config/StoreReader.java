package dev.sluice.config;

import dev.sluice.store.MemoryStore;
import dev.sluice.store.RedisTarget;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code store} and {@code fleet} sections. Redis URLs may name environment variables,
 * {@code redis://:${REDIS_PASSWORD}@redis:6379}, so a password need not live in the file (see
 * {@link UrlTemplate}).
 */
final class StoreReader {
  static final long DEFAULT_TIMEOUT_MICROS = 50_000;
  static final int DEFAULT_POOL_SIZE = 32;

  /** A number of JVMs, 1 to 999999. */
  private static final String JVMS = "[1-9][0-9]{0,5}";

  static final String PASSWORD_WRITTEN_OUT =
      "writes a password out in the file: name an environment variable for it instead,"
          + " redis://:${REDIS_PASSWORD}@host:6379";

  private final Problems problems;
  private final Map<String, String> environment;

  StoreReader(Problems problems, Map<String, String> environment) {
    this.problems = problems;
    this.environment = environment;
  }

  StoreSettings read(Fields store, Fields fleet) {
    int fleetSize = fleetSize(fleet);
    int fleetMin = fleetMin(fleet, fleetSize);
    if (store == null) {
      return StoreSettings.DEFAULT;
    }
    String type = store.string("type");
    Long maxKeys = store.positive("max_keys");
    long keys = maxKeys == null ? MemoryStore.DEFAULT_MAX_KEYS : maxKeys;
    String prefix = store.string("key_prefix");
    if (prefix != null && !prefix.matches(StoreSettings.KEY_PREFIX)) {
      problems.at(
          store.where("key_prefix"),
          store.pathOf("key_prefix"),
          StoreSettings.KEY_PREFIX_RULE + ", got \"" + prefix + "\"");
    }
    Fields redis = store.fields("redis");
    // consistency and sync are the rules' store-wide default: ConsistencyReader reads them.
    store.finish("type", "max_keys", "key_prefix", "redis", "consistency", "sync");
    if (type == null || type.equals("memory")) {
      if (redis != null) {
        problems.at(redis.node(), store.pathOf("redis"), "applies to type: redis only");
      }
      return StoreSettings.memory(keys);
    }
    if (!type.equals("redis")) {
      problems.at(
          store.where("type"),
          store.pathOf("type"),
          "must be memory or redis, got \"" + type + "\"");
      return StoreSettings.memory(keys);
    }
    if (redis == null) {
      problems.at(
          store.node(),
          store.pathOf("redis"),
          "missing: type redis needs redis: { url: redis://host:6379 } (or cluster, sentinel)");
      return StoreSettings.memory(keys);
    }
    RedisTarget settings = redis(redis);
    return settings == null
        ? StoreSettings.memory(keys)
        : StoreSettings.redis(keys, settings, prefix == null ? "rl" : prefix, fleetSize, fleetMin);
  }

  private RedisTarget redis(Fields f) {
    List<URI> url = urls(f, "url");
    List<URI> cluster = urls(f, "cluster");
    Fields sentinel = f.fields("sentinel");
    String master = null;
    List<URI> sentinels = null;
    if (sentinel != null) {
      master = sentinel.string("master");
      sentinels = urls(sentinel, "nodes");
      if (master == null || sentinels == null) {
        problems.at(
            sentinel.node(),
            f.pathOf("sentinel"),
            "needs master: <name> and nodes: [redis://sentinel:26379, ...]");
      }
      sentinel.finish("master", "nodes");
    }
    Long timeout = f.duration("timeout");
    Long pool = f.positive("pool_size");
    f.finish("url", "cluster", "sentinel", "timeout", "pool_size");
    int given = (url != null ? 1 : 0) + (cluster != null ? 1 : 0) + (sentinel != null ? 1 : 0);
    if (given != 1) {
      problems.at(f.node(), f.pathOf("url"), "give exactly one of url, cluster or sentinel");
      return null;
    }
    int timeoutMillis =
        (int) Math.max(1, (timeout == null ? DEFAULT_TIMEOUT_MICROS : timeout) / 1000);
    int poolSize = pool == null ? DEFAULT_POOL_SIZE : (int) Math.min(pool, 10_000);
    if (url != null) {
      return url.isEmpty() ? null : RedisTarget.standalone(url.get(0), timeoutMillis, poolSize);
    }
    if (cluster != null) {
      return cluster.isEmpty() ? null : RedisTarget.cluster(cluster, timeoutMillis, poolSize);
    }
    return master == null || sentinels == null || sentinels.isEmpty()
        ? null
        : RedisTarget.sentinel(master, sentinels, timeoutMillis, poolSize);
  }

  /** Redis URLs given as one value or a list, with environment variables expanded; or null. */
  private List<URI> urls(Fields f, String name) {
    List<Fields.Value> values = f.values(name);
    if (values == null) {
      return null;
    }
    List<URI> urls = new ArrayList<>();
    for (Fields.Value value : values) {
      String text = UrlTemplate.expand(value, environment, problems);
      if (text == null) {
        continue;
      }
      if (UrlTemplate.writesOutPassword(value.text)) {
        problems.warn(value.node, value.path, PASSWORD_WRITTEN_OUT);
      }
      try {
        urls.add(RedisTarget.parseUrl(text));
      } catch (IllegalArgumentException e) {
        // The message never repeats the URL: it may hold a password.
        problems.at(value.node, value.path, e.getMessage());
      }
    }
    return urls;
  }

  private int fleetSize(Fields fleet) {
    if (fleet == null) {
      return 0;
    }
    String size = fleet.string("size");
    if (size == null || size.equals("auto")) {
      return 0;
    }
    if (size.matches(JVMS)) {
      return Integer.parseInt(size);
    }
    problems.at(
        fleet.where("size"),
        fleet.pathOf("size"),
        "must be auto or a number of JVMs from 1 to 999999, got \"" + size + "\"");
    return 0;
  }

  /** The fewest JVMs an auto fleet is taken for; 1 unless given. */
  private int fleetMin(Fields fleet, int fleetSize) {
    if (fleet == null) {
      return 1;
    }
    String min = fleet.string("min");
    fleet.finish("size", "min");
    if (min == null) {
      return 1;
    }
    if (fleetSize != 0) {
      problems.at(fleet.where("min"), fleet.pathOf("min"), "applies to size: auto only");
    } else if (min.matches(JVMS)) {
      return Integer.parseInt(min);
    } else {
      problems.at(
          fleet.where("min"),
          fleet.pathOf("min"),
          "must be a number of JVMs from 1 to 999999, got \"" + min + "\"");
    }
    return 1;
  }
}
