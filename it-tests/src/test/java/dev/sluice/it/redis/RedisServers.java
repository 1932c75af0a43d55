package dev.sluice.it.redis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where every test gets its Redis. A standalone server comes from the first of: a Testcontainers
 * {@code redis:7} container when a Docker engine answers; a redis-server process the harness starts
 * on a free loopback port; the server named by SLUICE_TEST_REDIS ({@code redis://host:port}). With
 * none of them it fails, naming all three and what was tried: a test never skips silently.
 * Clusters, sentinels and fault injection need processes the harness starts itself.
 */
public final class RedisServers {
  /** The environment variable naming a Redis server to use when nothing else is available. */
  public static final String ENV = "SLUICE_TEST_REDIS";

  private RedisServers() {}

  /** A server for one test class; close it in {@code @AfterAll}. */
  public static RedisServer standalone() {
    return standalone(
        RedisContainer::whyUnavailable, Binaries.find("redis-server"), System.getenv(ENV));
  }

  /**
   * A redis-server process the harness starts, for tests that inject faults (pause, kill, restart);
   * fails if redis-server is not installed, whatever else is available.
   */
  public static RedisProcess localProcess() {
    Path binary =
        Binaries.require("redis-server", "for fault injection (RedisServers.localProcess)");
    return RedisProcess.start(binary, "standalone", RedisProcess.Kind.SERVER, List.of());
  }

  /**
   * A redis-server process that requires {@code password} (requirepass, any characters); its
   * clients, a {@link RedisServer#probe()} included, must send AUTH first.
   */
  public static RedisProcess localProcess(String password) {
    Path binary = Binaries.require("redis-server", "for a password (RedisServers.localProcess)");
    return RedisProcess.start(
        binary, "standalone-password", RedisProcess.Kind.SERVER, List.of(), password);
  }

  /**
   * A Redis Cluster of redis-server processes, {@code masters} (at least 3) each with {@code
   * replicasPerMaster} replicas, formed with all 16384 slots covered.
   */
  public static RedisClusterHandle cluster(int masters, int replicasPerMaster) {
    return RedisClusterHandle.start(masters, replicasPerMaster);
  }

  /** A master, one replica and three sentinels watching it as "mymaster". */
  public static RedisSentinelHandle sentinel() {
    return RedisSentinelHandle.start();
  }

  /** The choice of {@link #standalone()}, with its inputs given, so tests can check each path. */
  static RedisServer standalone(
      Supplier<Optional<String>> dockerUnavailable, Optional<Path> redisServer, String named) {
    List<String> tried = new ArrayList<>();
    Optional<String> noDocker = dockerUnavailable.get();
    if (noDocker.isEmpty()) {
      try {
        return RedisContainer.start();
      } catch (RuntimeException e) {
        tried.add("Testcontainers (redis:7): Docker answered, but the container failed: " + e);
      }
    } else {
      tried.add("Testcontainers (redis:7): " + noDocker.get());
    }
    if (redisServer.isPresent()) {
      try {
        return RedisProcess.start(
            redisServer.get(), "standalone", RedisProcess.Kind.SERVER, List.of());
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
        return RemoteRedisServer.named(named);
      } catch (RuntimeException e) {
        tried.add(ENV + "=" + named + ": " + e.getMessage());
      }
    }
    throw new IllegalStateException(
        "No Redis for the tests. Tried, in order:\n  1. "
            + tried.get(0)
            + "\n  2. "
            + tried.get(1)
            + "\n  3. "
            + tried.get(2)
            + "\nStart a Docker engine, install redis-server (Redis 7) on the PATH, or set "
            + ENV
            + "=redis://host:port.");
  }
}
