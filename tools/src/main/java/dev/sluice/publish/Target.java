package dev.sluice.publish;

import dev.sluice.config.Check;
import dev.sluice.config.Config;
import dev.sluice.config.StoreSettings;
import dev.sluice.store.redis.PublishedRules;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.support.CommandLine;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;

/**
 * The Redis the versions are published in, as the options name it: {@code --config <local.yaml>}
 * takes the store of a JVM's own file (Sentinel, TLS, passwords from environment variables and the
 * key prefix included), so the commands reach exactly the Redis the JVMs read; {@code --redis
 * <url>} (one server) or {@code --cluster <url>,<url>...} (Redis Cluster seed nodes) name it
 * outright, with {@code --key-prefix} when the JVMs' files set one.
 */
final class Target {
  /** The options that name the target, which every publishing command takes. */
  static final String[] OPTIONS = {"config", "redis", "cluster", "key-prefix"};

  /** The most a command waits for Redis: far longer than a decision may, as nobody waits on it. */
  static final int TIMEOUT_MILLIS = 5_000;

  private final StoreSettings store;
  private final String localFile;
  private final Config local;

  private Target(StoreSettings store, String localFile, Config local) {
    this.store = store;
    this.localFile = localFile;
    this.local = local;
  }

  /**
   * The target the options name; null, after saying why on {@code err}, when the file given with
   * {@code --config} is invalid or has no Redis store.
   *
   * @throws IllegalArgumentException when the options name no target or several, or a bad one
   */
  static Target of(CommandLine options, String command, PrintStream err) {
    String file = options.get("config");
    String redis = options.get("redis");
    String cluster = options.get("cluster");
    String prefix = options.get("key-prefix");
    if ((file != null ? 1 : 0) + (redis != null ? 1 : 0) + (cluster != null ? 1 : 0) != 1) {
      throw new IllegalArgumentException("give exactly one of --config, --redis or --cluster");
    }
    if (file == null) {
      return new Target(
          StoreSettings.atRedis(
              redis != null ? Collections.singletonList(redis) : Arrays.asList(cluster.split(",")),
              cluster != null,
              prefix == null ? "rl" : prefix,
              System.getenv()),
          null,
          null);
    }
    if (prefix != null) {
      throw new IllegalArgumentException(
          "--key-prefix goes with --redis or --cluster: --config "
              + "takes the key_prefix of its file");
    }
    Config config = Check.forItsStore(command, file, err).config();
    if (config == null || config.store().redis() == null) {
      err.println(
          command
              + ": "
              + file
              + (config == null ? " is not valid" : " has no Redis store (store.type: redis)")
              + ", so it names no Redis to publish in");
      return null;
    }
    return new Target(config.store(), file, config);
  }

  /** A client of the published versions; the caller closes it. */
  PublishedRules open() {
    return PublishedRules.open(
        RedisSettings.of(store.redis()), store.keyPrefix(), TIMEOUT_MILLIS);
  }

  /**
   * Warns when {@code pushed} has sections that JVMs keep of their own (store, fleet, client_ip,
   * admin) and will not apply: other than the local file's, or any at all when there is no local
   * file to compare with.
   */
  void warnAboutLocalSections(String file, Config pushed, PrintStream err) {
    String kept = pushed.localSectionsDifferingFrom(local);
    if (kept != null) {
      err.println(
          "warning: "
              + file
              + " has "
              + kept
              + (local == null ? "" : " other than " + localFile + "'s")
              + ": JVMs that take their rules from Redis (rules_from: redis) do not apply them,"
              + " they keep their own local file's");
    }
  }

  @Override
  public String toString() {
    return "redis " + store.redis();
  }
}
