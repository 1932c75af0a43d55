package dev.sluice.it.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Redis harness itself: a standalone server with its faults, and (nested, each started once) a
 * cluster and a sentinel setup. Where Redis comes from: {@link RedisSourcesIT}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisHarnessIT {
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
  void standaloneAnswersPingAndCloseStopsIt() {
    RedisServer closed;
    try (RedisServer standalone = RedisServers.standalone()) {
      closed = standalone;
      assertThat(RedisProbe.once(standalone.host(), standalone.port(), "PING")).isEqualTo("PONG");
      assertThat(standalone.uri())
          .isEqualTo("redis://" + standalone.host() + ":" + standalone.port());
    }
    assertThatThrownBy(() -> RedisProbe.once(closed.host(), closed.port(), "PING"))
        .isInstanceOf(UncheckedIOException.class);
  }

  @Test
  void aLocalProcessListensOnLoopbackOnlyAndLeavesNothingBehind() {
    RedisProcess local = RedisServers.localProcess();
    Path dir = local.logFile().getParent();
    long pid = local.pid();
    try (RedisProbe probe = local.probe()) {
      assertThat(probe.call("CONFIG", "GET", "bind")).isEqualTo(List.of("bind", "127.0.0.1"));
      assertThat(probe.call("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
    }
    assertThat(local.uri()).isEqualTo("redis://127.0.0.1:" + local.port());
    assertThat(Files.isDirectory(dir)).isTrue();
    local.close();
    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(dir).doesNotExist();
  }

  @Test
  void pauseMakesCommandsTimeOutAndResumeMakesThemAnswer() {
    server.pause();
    try (RedisProbe probe =
        RedisProbe.connect(server.host(), server.port(), Duration.ofMillis(300))) {
      // The kernel still accepts the connection; nobody reads from it.
      assertThatThrownBy(() -> probe.call("PING"))
          .isInstanceOf(UncheckedIOException.class)
          .hasCauseInstanceOf(SocketTimeoutException.class);
    } finally {
      server.resume();
    }
    assertThat(RedisProbe.once(server.host(), server.port(), "PING")).isEqualTo("PONG");
  }

  @Test
  void killThenRestartGivesAnEmptyServerOnTheSamePort() {
    int port = server.port();
    long pid = server.pid();
    try (RedisProbe probe = server.probe()) {
      probe.call("SET", "restart:k", "v");
      assertThat(probe.callLong("DBSIZE")).isPositive();
    }
    server.kill();
    assertThat(server.isAlive()).isFalse();
    assertThatThrownBy(() -> RedisProbe.once(server.host(), port, "PING"))
        .hasCauseInstanceOf(ConnectException.class);
    server.restart();
    assertThat(server.port()).isEqualTo(port);
    assertThat(server.pid()).isNotEqualTo(pid);
    try (RedisProbe probe = server.probe()) {
      assertThat(probe.callLong("DBSIZE")).isZero();
      assertThat(probe.call("GET", "restart:k")).isNull();
    }
  }

  @Test
  void flushAllEmptiesTheServer() {
    RedisProbe.once(server.host(), server.port(), "SET", "flush:k", "v");
    server.flushAll();
    assertThat(RedisProbe.once(server.host(), server.port(), "DBSIZE")).isEqualTo(0L);
  }

  @Test
  void theProbeReadsEveryKindOfReply() {
    try (RedisProbe probe = server.probe()) {
      assertThat(probe.call("SET", "probe:s", "h\u00e9llo")).isEqualTo("OK");
      assertThat(probe.call("GET", "probe:s")).isEqualTo("h\u00e9llo");
      assertThat(probe.call("GET", "probe:missing")).isNull();
      assertThat(probe.call("INCRBY", "probe:n", "41")).isEqualTo(41L);
      probe.call("DEL", "probe:l");
      probe.call("RPUSH", "probe:l", "a", "b");
      assertThat(probe.call("LRANGE", "probe:l", "0", "-1")).isEqualTo(List.of("a", "b"));
      assertThat(probe.call("MEMORY", "USAGE", "probe:s")).isInstanceOf(Long.class);
      assertThat(probe.call("DEBUG", "SLEEP", "0")).isEqualTo("OK");
      assertThat(probe.info("server")).containsEntry("process_id", "" + server.pid());
      assertThatThrownBy(() -> probe.call("NO-SUCH-COMMAND"))
          .isInstanceOfSatisfying(
              RedisProbe.ErrorReply.class,
              e -> assertThat(e.reply()).startsWith("ERR unknown command"));
      // An error inside an array is returned, not thrown, and the connection stays in step.
      probe.call("MULTI");
      probe.call("SET", "probe:t", "x");
      probe.call("INCR", "probe:t");
      List<?> exec = (List<?>) probe.call("EXEC");
      assertThat(exec.get(0)).isEqualTo("OK");
      assertThat(exec.get(1)).isInstanceOf(RedisProbe.ErrorReply.class);
      assertThat(probe.call("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void aJvmThatExitsWithoutClosingLeavesNoServerBehind() throws Exception {
    OrphanCheck.assertShutdownHookReaps();
  }

  @Nested
  class Cluster extends ClusterChecks {}

  @Nested
  class Sentinel extends SentinelChecks {}
}
