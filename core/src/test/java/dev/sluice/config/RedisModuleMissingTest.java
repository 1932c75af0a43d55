package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.TestRequest;
import dev.sluice.metrics.ConfigStatus;
import dev.sluice.store.ManualClock;
import dev.sluice.store.RedisModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sluice-core alone, as a memory-only application carries it: a config that names a Redis store is
 * rejected as an invalid file is, saying which artifact to add, and nothing tries to connect. (The
 * Redis module's own tests see it found: RulesFromRedisTest, RedisModuleFoundTest.)
 */
class RedisModuleMissingTest {
  private static final String REDIS =
      "store: { type: redis, redis: { url: redis://127.0.0.1:6390 } }\n";
  private static final String RULES =
      "rules: [{ id: a, match: { path: /a }, key: ip, limit: 1, window: 1m }]\n";

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  @Test
  void coreAloneHasNoRedisModule() {
    assertThat(RedisModule.present()).isFalse();
    assertThat(RedisModule.in(RedisModule.class.getClassLoader())).isNull();
    assertThatThrownBy(RedisModule::find)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("add dev.sluice:sluice-redis");
  }

  @Test
  void aRedisStoreIsReadButCannotOpen() throws Exception {
    StoreSettings redis = ConfigParser.parse("f.yaml", REDIS + RULES, Map.of()).store();
    assertThat(redis.type()).isEqualTo("redis");
    assertThatThrownBy(() -> redis.open(clock))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(RedisModule.MISSING);
  }

  @Test
  void aConfigNamingRedisIsRejectedSayingWhatToAdd() throws Exception {
    Path file = Files.writeString(dir.resolve("ratelimit.yaml"), REDIS + RULES);
    try (LiveLimiter live = LiveLimiter.manual(ConfigSource.of(file.toString(), null), clock)) {
      ConfigStatus status = live.metrics().config();
      assertThat(status.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
      assertThat(status.problem())
          .startsWith("Sluice rejected " + file)
          .contains("store.type: redis needs the Redis store", "add dev.sluice:sluice-redis");
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed()).isTrue();
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed())
          .as("nothing is limited, as with any file rejected at start")
          .isTrue();

      Files.writeString(file, RULES);
      assertThat(live.reload()).as("the same rules in memory are applied").isTrue();
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed()).isTrue();
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed()).isFalse();

      Files.writeString(file, REDIS + RULES.replace("limit: 1", "limit: 9"));
      assertThat(live.reload()).as("a change to Redis is rejected").isFalse();
      assertThat(live.metrics().config().problem()).contains("add dev.sluice:sluice-redis");
      assertThat(live.limiter().decide(TestRequest.get("/a")).allowed())
          .as("the rules in force stay")
          .isFalse();
    }
  }
}
