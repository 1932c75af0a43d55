package dev.sluice.it.redis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where every test gets its Redis. A standalone server comes from the first of: a Testcontainers
 * {@code redis:7} container when a Docker engine answers; a process of the redis-server on the
 * PATH, started by the harness on a free loopback port; the server named by SLUICE_TEST_REDIS
 * ({@code redis://host:port}); a process of the redis-server bundled in a test dependency ({@link
 * BundledRedis}). With none of them it fails, naming all four and what was tried: a test never
 * skips silently. Clusters, sentinels and fault injection need processes the harness starts itself,
 * of the redis-server on the PATH, else the bundled one.
 *
 * <p>{@code -Dsluice.it.redis=bundled} makes every server the bundled one, to run the tests on
 * Redis 6.2 where a newer Redis is installed. Each source is logged once per JVM, with its version.
 */
public final class RedisServers {
  /** The environment variable naming a Redis server to use, unless Docker or redis-server is. */
  public static final String ENV = "SLUICE_TEST_REDIS";

  private RedisServers() {}

  /** A server for one test class; close it in {@code @AfterAll}. */
  public static RedisServer standalone() {
    if (RedisBinary.bundledOnly()) {
      return localProcess();
    }
    return standalone(
        RedisContainer::whyUnavailable,
        Binaries.find("redis-server"),
        System.getenv(ENV),
        BundledRedis::extract);
  }

  /**
   * A redis-server process the harness starts, for tests that inject faults (pause, kill, restart).
   */
  public static RedisProcess localProcess() {
    return RedisProcess.startLocal();
  }

  /**
   * A redis-server process that requires {@code password} (requirepass, any characters); its
   * clients, a {@link RedisServer#probe()} included, must send AUTH first.
   */
  public static RedisProcess localProcess(String password) {
    return RedisProcess.start(
        RedisBinary.local(), "standalone-password", RedisProcess.Kind.SERVER, List.of(), password);
  }

  /**
   * A Redis Cluster of redis-server processes, {@code masters} (at least 3) each with {@code
   * replicasPerMaster} replicas, formed with all 16384 slots covered.
   */
  public static RedisClusterHandle cluster(int masters, int replicasPerMaster) {
    return RedisClusterHandle.startLocal(masters, replicasPerMaster);
  }

  /** A loopback URL nobody answers at: a free port handed out once in this JVM, never bound. */
  public static String unreachableUri() {
    return "redis://127.0.0.1:" + Ports.free();
  }

  /** A master, one replica and three sentinels watching it as "mymaster". */
  public static RedisSentinelHandle sentinel() {
    return RedisSentinelHandle.start(RedisBinary.local());
  }

  /** The choice of {@link #standalone()}, with its inputs given, so tests can check each path. */
  static RedisServer standalone(
      Supplier<Optional<String>> dockerUnavailable,
      Optional<Path> redisServer,
      String named,
      Supplier<Path> bundled) {
    List<String> tried = new ArrayList<>();
    Optional<String> noDocker = dockerUnavailable.get();
    if (noDocker.isEmpty()) {
      try {
        return announced("a Testcontainers redis:7 container", RedisContainer.start());
      } catch (RuntimeException e) {
        tried.add("Testcontainers (redis:7): Docker answered, but the container failed: " + e);
      }
    } else {
      tried.add("Testcontainers (redis:7): " + noDocker.get());
    }
    if (redisServer.isPresent()) {
      try {
        return process(RedisBinary.of(redisServer.get(), RedisBinary.ON_PATH));
      } catch (RuntimeException e) {
        tried.add("redis-server process (" + redisServer.get() + "): failed: " + e.getMessage());
      }
    } else {
      tried.add("redis-server process: " + Binaries.notFound("redis-server"));
    }
    if (named == null || named.isBlank()) {
      tried.add(ENV + ": not set");
    } else {
      try {
        return announced(ENV + "=" + named, RemoteRedisServer.named(named));
      } catch (RuntimeException e) {
        tried.add(ENV + "=" + named + ": " + e.getMessage());
      }
    }
    try {
      return process(RedisBinary.of(bundled.get(), BundledRedis.SOURCE));
    } catch (RuntimeException e) {
      tried.add(BundledRedis.SOURCE + ": failed: " + e.getMessage());
    }
    StringBuilder message = new StringBuilder("No Redis for the tests. Tried, in order:");
    for (int i = 0; i < tried.size(); i++) {
      message.append("\n  ").append(i + 1).append(". ").append(tried.get(i));
    }
    throw new IllegalStateException(
        message
            + "\nStart a Docker engine, install redis-server on the PATH, or set "
            + ENV
            + "=redis://host:port.");
  }

  private static RedisProcess process(RedisBinary binary) {
    RedisProcess process =
        RedisProcess.start(binary, "standalone", RedisProcess.Kind.SERVER, List.of());
    RedisBinary.announce(binary.toString());
    return process;
  }

  private static RedisServer announced(String source, RedisServer server) {
    String version;
    try (RedisProbe probe = server.probe()) {
      version = probe.info("server").get("redis_version");
    } catch (RuntimeException e) {
      // The tests will say what is wrong with the server; this line only tells where it is.
      version = "(no version: " + e.getMessage() + ")";
    }
    RedisBinary.announce(source + " " + version);
    return server;
  }
}
