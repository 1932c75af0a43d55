package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.LogCapture;
import dev.sluice.config.Config;
import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.RequestView;
import dev.sluice.core.TestRequest;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import dev.sluice.store.Store;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Redis whose password is full of URL syntax: the URL names it as {@code ${REDIS_PASSWORD}} in
 * its user info, and the store logs in with it exactly and counts in Redis.
 */
class RedisPasswordIT {
  private static final String PASSWORD = "p@ss:w/rd?#%41 +ü";
  private static final String PREFIX = "pw";
  private static final RequestView HELLO = TestRequest.get("/hello");
  private static RedisProcess redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.localProcess(PASSWORD);
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  /** A limit of 2 in a bucket of an hour, checked in Redis by a store that waits up to 2 s. */
  private static Config config() throws Exception {
    String yaml =
        """
        store:
          type: redis
          key_prefix: %s
          redis: { url: "redis://:${REDIS_PASSWORD}@%s:%d", timeout: 2s }
        fleet: { size: 1 }
        rules:
          - { id: hello, match: { path: /hello }, key: ip, limit: 2, window: 1h,
              algorithm: token_bucket, on_error: fail_closed }
        """
            .formatted(PREFIX, redis.host(), redis.port());
    return ConfigParser.parse("ratelimit.yaml", yaml, Map.of("REDIS_PASSWORD", PASSWORD));
  }

  @Test
  void aPasswordFullOfUrlSyntaxLogsInAndTheStoreCounts() throws Exception {
    try (RedisProbe anonymous = redis.probe()) {
      assertThatThrownBy(() -> anonymous.call("GET", "x"))
          .as("this Redis requires the password")
          .hasMessageContaining("NOAUTH");
    }
    Config config = config();
    try (LogCapture log = LogCapture.of("dev.sluice.store.redis");
        Store store = config.store().open(Clock.SYSTEM)) {
      Limiter limiter = new Limiter(store);
      limiter.apply(config.rules());
      // fail_closed: a store that could not log in would deny every request.
      assertThat(limiter.decide(HELLO).allowed()).isTrue();
      assertThat(limiter.decide(HELLO).allowed()).isTrue();
      assertThat(limiter.decide(HELLO).allowed()).isFalse();
      assertThat(log.messages()).noneMatch(m -> m.contains("failing"));
      assertThat(String.join("\n", log.messages())).doesNotContain(PASSWORD);
    }
    try (RedisProbe probe = redis.probe()) {
      probe.call("AUTH", PASSWORD);
      assertThat((List<?>) probe.call("KEYS", PREFIX + "{*")).as("the count in Redis").hasSize(1);
    }
  }
}
