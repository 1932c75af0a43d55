package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.redis.RedisAccess;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The credentials a Redis URL of the file gives, as the Redis store logs in with them (the engine
 * reads and compares them, {@link StoreReaderTest}; Jedis decodes them here).
 */
class StoreCredentialsTest {
  private static StoreSettings store(String yaml, Map<String, String> env) throws Exception {
    return ConfigParser.parse("f.yaml", yaml + "rules: []\n", env).store();
  }

  /** A variable in the user info is a value, not URL syntax: any password is taken as it is. */
  @Test
  void aVariableInTheUserInfoIsTakenExactlyWhateverItHolds() throws Exception {
    String yaml = "store: { type: redis, redis: { url: 'redis://${U}:${P}@r:6379/2' } }\n";
    for (String password :
        List.of("p@ss", "a#b", "a/b", "a?b", "100%", "%41", "a:b", "a b", "+ü€", "@#/?%: x")) {
      StoreSettings settings = store(yaml, Map.of("U", "ops:1@x", "P", password));
      assertThat(RedisAccess.password(settings.redis())).as(password).isEqualTo(password);
      assertThat(RedisAccess.user(settings.redis())).isEqualTo("ops:1@x");
      assertThat(settings.toString()).doesNotContain(password).contains("r:6379");
    }
  }

  /** Only the user info is encoded: a variable holding a whole URL is still read as one. */
  @Test
  void aVariableElsewhereIsPartOfTheUrl() throws Exception {
    StoreSettings settings =
        store(
            "store: { type: redis, redis: { url: '${REDIS_URL}' } }\n",
            Map.of("REDIS_URL", "redis://:p%40ss@r:6380/1"));
    assertThat(settings.toString()).contains("r:6380");
    assertThat(RedisAccess.password(settings.redis())).isEqualTo("p@ss");
    assertThat(RedisAccess.user(settings.redis())).isNull();
  }
}
