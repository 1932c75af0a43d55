package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.core.RequestView;
import dev.sluice.core.TestRequest;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs (two limiters here) start with a file they must reject: its Redis URL names a password
 * variable that is not set. Once the file is fixed its Redis store is the one both use, so they
 * share one limit in Redis, where each would otherwise keep a limit of its own in memory.
 */
class StoreSwitchIT {
  private static final String UNSET = "SLUICE_IT_NEVER_SET_PASSWORD";
  private static final String PREFIX = "switch" + ProcessHandle.current().pid();
  private static final RequestView HELLO = TestRequest.get("/hello");
  private static RedisServer redis;

  @TempDir Path dir;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  /** A limit of 3 in a bucket of an hour: no window boundary, no refill during the test. */
  private Path write(String url) throws Exception {
    String yaml =
        """
        store:
          type: redis
          key_prefix: %s
          redis: { url: "%s", timeout: 2s }
        fleet: { size: 2 }
        rules:
          - { id: hello, match: { path: /hello }, key: ip, limit: 3, window: 1h,
              algorithm: token_bucket }
        """
            .formatted(PREFIX, url);
    Path next = Files.writeString(dir.resolve("next.yaml"), yaml, StandardCharsets.UTF_8);
    return Files.move(
        next,
        dir.resolve("ratelimit.yaml"),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  private static int admitted(LiveLimiter live, int attempts) {
    int allowed = 0;
    for (int i = 0; i < attempts; i++) {
      allowed += live.limiter().decide(HELLO).allowed() ? 1 : 0;
    }
    return allowed;
  }

  @Test
  void aFileFixedAfterStartUpMovesTheCountsIntoRedis() throws Exception {
    assertThat(System.getenv(UNSET)).as(UNSET + " must not be set").isNull();
    Path file = write("redis://:${" + UNSET + "}@" + redis.host() + ":" + redis.port());
    ConfigSource source = ConfigSource.of(file.toString(), null);
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter a = LiveLimiter.manual(source, Clock.SYSTEM);
        LiveLimiter b = LiveLimiter.manual(source, Clock.SYSTEM)) {
      assertThat(admitted(a, 5) + admitted(b, 5)).as("rejected: nothing limited").isEqualTo(10);

      write(redis.uri());
      assertThat(a.reload()).isTrue();
      assertThat(b.reload()).isTrue();
      assertThat(admitted(a, 2)).isEqualTo(2);
      assertThat(admitted(b, 5)).as("what a took is gone for b too").isEqualTo(1);
      assertThat(admitted(a, 5)).isZero();

      try (RedisProbe probe = redis.probe()) {
        assertThat((List<?>) probe.call("KEYS", PREFIX + "{*")).as("the count in Redis").hasSize(1);
      }
      assertThat(log.messages())
          .filteredOn(m -> m.startsWith("Sluice: switched stores"))
          .as("once per limiter")
          .hasSize(2);
    }
  }
}
