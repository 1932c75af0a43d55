package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.redis.RedisAccess;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Redis store named on a command line, as the publishing commands take it. */
class StoreSettingsTest {
  @Test
  void aRedisNamedOutrightIsTheStoreTheFileWouldName() throws Exception {
    StoreSettings named =
        StoreSettings.atRedis(List.of("redis://:${P}@r:6379/2"), false, "app1", Map.of("P", "p@s"));
    assertThat(RedisAccess.password(named.redis())).isEqualTo("p@s");
    assertThat(named.keyPrefix()).isEqualTo("app1");
    assertThat(named)
        .isEqualTo(
            ConfigParser.parse(
                    "f.yaml",
                    "store: { type: redis, key_prefix: app1,"
                        + " redis: { url: 'redis://:${P}@r:6379/2' } }\nrules: []\n",
                    Map.of("P", "p@s"))
                .store());
    assertThat(
            StoreSettings.atRedis(List.of("redis://a:7000", "redis://b:7001"), true, "rl", Map.of())
                .redis())
        .hasToString("cluster a:7000,b:7001");
  }

  @Test
  void mistakesAreSaidWithoutRepeatingTheUrl() {
    assertThatThrownBy(
            () -> StoreSettings.atRedis(List.of("redis://:${P}@r"), false, "rl", Map.of()))
        .hasMessage("a Redis URL names the environment variable P, which is not set");
    assertThatThrownBy(
            () -> StoreSettings.atRedis(List.of("http://s3cret@r"), false, "rl", Map.of()))
        .hasMessageStartingWith("a Redis URL must look like redis://")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> StoreSettings.atRedis(List.of("redis://r"), false, "a b", Map.of()))
        .hasMessage("the key prefix must be 1 to 32 of A-Z a-z 0-9 _ . : -, got \"a b\"");
  }
}
