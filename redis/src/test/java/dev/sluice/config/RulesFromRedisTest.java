package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.core.TestRequest;
import dev.sluice.metrics.ConfigStatus;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM whose file says {@code rules_from: redis} but that never reached Redis: its own rules are
 * in force, and it says so. Following real versions is tested against real Redis servers in
 * it-tests ({@code RulesFromRedisIT}, {@code PublishFleetIT}).
 */
class RulesFromRedisTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private Path writeLocal() throws Exception {
    return Files.writeString(
        dir.resolve("ratelimit.yaml"),
        "rules_from: redis\n"
            + "store: { type: redis, redis: { url: redis://127.0.0.1:"
            + closedPort()
            + " } }\n"
            + "rules: [{ id: a, match: { path: /a }, key: ip, limit: 1, window: 1m }]\n");
  }

  @Test
  void withoutRedisTheLocalRulesAreInForceAndTheProblemIsReportedOnce() throws Exception {
    Path file = writeLocal();
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live =
            LiveLimiter.manual(
                ConfigSource.of(file.toString(), null),
                clock,
                settings -> new MemoryStore(clock, 1_000, 1_000))) {
      live.reload();
      live.reload();
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed()).isTrue();
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed()).isFalse();
      ConfigStatus status = live.metrics().config();
      assertThat(status.version()).isEqualTo(RulesVersion.of(Files.readAllBytes(file)));
      assertThat(status.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
      assertThat(status.problem())
          .startsWith("Sluice cannot read the rules published in redis 127.0.0.1:")
          .endsWith("; the rules of " + file + " stay in force");
      assertThat(log.messages()).filteredOn(m -> m.contains("cannot read")).hasSize(1);
    }
  }

  /** Only a start without valid rules is refused: the local file's are valid. */
  @Test
  void refuseStartStartsOnTheLocalRulesWithoutRedis() throws Exception {
    try (LiveLimiter live =
        LiveLimiter.start(
            ConfigSource.of(writeLocal().toString(), null),
            OnInvalidConfig.REFUSE_START,
            "refuse-start-without-redis")) {
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed()).isTrue();
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed()).isFalse();
    }
  }
}
