package dev.sluice.it.redis;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the harness gets Redis from, each choice with its inputs given: Docker, the redis-server on
 * the PATH, SLUICE_TEST_REDIS, the bundled redis-server; and the bundled binary itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisSourcesIT {
  private static final Supplier<Optional<String>> NO_DOCKER = () -> Optional.of("no Docker (test)");
  private static final Supplier<Path> NO_BUNDLED =
      () -> {
        throw new IllegalStateException("no bundled binary (test)");
      };

  private RedisProcess server;

  @BeforeAll
  void start() {
    server = RedisServers.localProcess();
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void withNothingAvailableItFailsNamingAllFourOptions() {
    assertThatThrownBy(() -> RedisServers.standalone(NO_DOCKER, Optional.empty(), null, NO_BUNDLED))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("1. Testcontainers (redis:7): no Docker (test)")
        .hasMessageContaining("2. redis-server process: redis-server not found on PATH")
        .hasMessageContaining("3. SLUICE_TEST_REDIS: not set")
        .hasMessageContaining("4. " + BundledRedis.SOURCE + ": failed: no bundled binary (test)");
  }

  @Test
  void aFailingRedisServerAndASilentNamedServerAreBothReported(@TempDir Path dir)
      throws IOException {
    String silent = "redis://127.0.0.1:" + Ports.free();
    Path exits = fakeRedisServer(dir, "exit 3");
    assertThatThrownBy(
            () ->
                RedisServers.standalone(
                    NO_DOCKER, Optional.of(Path.of("/bin/false")), silent, NO_BUNDLED))
        .hasMessageContaining("2. redis-server process (/bin/false): failed: exit code 1")
        .hasMessageContaining("3. SLUICE_TEST_REDIS=" + silent + ": did not answer PING");
    assertThatThrownBy(
            () -> RedisServers.standalone(NO_DOCKER, Optional.of(exits), null, NO_BUNDLED))
        .hasMessageContaining("2. redis-server process (" + exits + "): failed: ")
        .hasMessageContaining("exited with code 3");
  }

  @Test
  void aRedisServerOnThePathComesBeforeANamedServer() {
    Optional<Path> installed = Optional.of(RedisBinary.local().path());
    try (RedisServer started =
        RedisServers.standalone(NO_DOCKER, installed, server.uri(), NO_BUNDLED)) {
      assertThat(started).isInstanceOf(RedisProcess.class);
      assertThat(started.port()).isNotEqualTo(server.port());
    }
  }

  @Test
  void aNamedServerComesBeforeTheBundledOneButRefusesFaults() {
    try (RedisServer named =
        RedisServers.standalone(NO_DOCKER, Optional.empty(), server.uri(), NO_BUNDLED)) {
      assertThat(named.port()).isEqualTo(server.port());
      assertThat(RedisProbe.once(named.host(), named.port(), "PING")).isEqualTo("PONG");
      for (Runnable fault :
          List.<Runnable>of(named::pause, named::resume, named::kill, named::restart)) {
        assertThatThrownBy(fault::run)
            .isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("SLUICE_TEST_REDIS=" + server.uri())
            .hasMessageContaining("RedisServers.localProcess()");
      }
    }
    assertThat(server.isAlive()).as("closing a named server leaves it running").isTrue();
  }

  @Test
  void theBundledRedis62IsTheLastResort() {
    try (RedisServer bundled =
        RedisServers.standalone(NO_DOCKER, Optional.empty(), null, BundledRedis::extract)) {
      assertThat(bundled).isInstanceOf(RedisProcess.class);
      try (RedisProbe probe = bundled.probe()) {
        assertThat(probe.info("server").get("redis_version")).startsWith("6.2.");
      }
    }
  }

  @Test
  void processesRunTheRedisServerOnThePathUnlessBundledIsAskedFor(@TempDir Path dir)
      throws IOException {
    Path installed = fakeRedisServer(dir, "exit 0");
    Supplier<Path> bundled = BundledRedis::extract;
    RedisBinary fromPath = RedisBinary.choose(false, Optional.of(installed), NO_BUNDLED);
    assertThat(fromPath.path()).isEqualTo(installed);
    assertThat(fromPath.source()).isEqualTo(RedisBinary.ON_PATH);
    assertThat(fromPath.version()).isEqualTo("7.2.4");
    assertThat(fromPath.major()).isEqualTo(7);
    RedisBinary asked = RedisBinary.choose(true, Optional.of(installed), bundled);
    RedisBinary lastResort = RedisBinary.choose(false, Optional.empty(), bundled);
    for (RedisBinary binary : List.of(asked, lastResort)) {
      assertThat(binary.source()).isEqualTo(BundledRedis.SOURCE);
      assertThat(binary.version()).startsWith("6.2.");
      assertThat(binary.major()).isEqualTo(6);
    }
  }

  @Test
  void theBundledBinaryIsChosenByOsAndArchitecture() {
    assertThat(BundledRedis.resourceFor("Linux", "amd64")).endsWith("-linux-amd64");
    assertThat(BundledRedis.resourceFor("Linux", "aarch64")).endsWith("-linux-arm64");
    assertThat(BundledRedis.resourceFor("Mac OS X", "x86_64")).endsWith("-darwin-amd64");
    assertThat(BundledRedis.resourceFor("Mac OS X", "aarch64")).endsWith("-darwin-arm64");
    assertThatThrownBy(() -> BundledRedis.resourceFor("Windows 11", "amd64"))
        .hasMessageContaining("no redis-server for Windows 11 on amd64");
  }

  @Test
  void extractionsRacingLeaveOneWholeExecutable(@TempDir Path dir) throws Exception {
    String resource =
        BundledRedis.resourceFor(System.getProperty("os.name"), System.getProperty("os.arch"));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Path> extracted;
    try {
      Callable<Path> extract = () -> BundledRedis.extract(dir, resource);
      List<Future<Path>> all =
          pool.invokeAll(IntStream.range(0, 4).mapToObj(i -> extract).toList(), 60, SECONDS);
      extracted = all.stream().map(RedisSourcesIT::result).toList();
    } finally {
      pool.shutdownNow();
    }
    assertThat(extracted).containsOnly(dir.resolve(resource));
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).as("no .part file left").containsExactly(dir.resolve(resource));
    }
    assertThat(Files.isExecutable(dir.resolve(resource))).isTrue();
    assertThat(RedisBinary.of(dir.resolve(resource), "test").version()).startsWith("6.2.");
  }

  @Test
  void theDockerProbeAnswersWithinItsBound() {
    long start = System.nanoTime();
    Optional<String> whyNot = RedisContainer.whyUnavailable();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    assertThat(whyNot).isNotNull();
    whyNot.ifPresent(reason -> assertThat(reason).isNotBlank());
  }

  /** A script that answers --version as Redis 7.2.4 does, and runs {@code otherwise} else. */
  private static Path fakeRedisServer(Path dir, String otherwise) throws IOException {
    Path script = dir.resolve("redis-server");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "if [ \"$1\" = --version ]; then echo 'Redis server v=7.2.4 sha=0:0 bits=64'; exit;"
            + " fi\n"
            + otherwise
            + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  private static Path result(Future<Path> future) {
    try {
      return future.get();
    } catch (Exception e) {
      throw new AssertionError("extracting failed", e);
    }
  }
}
