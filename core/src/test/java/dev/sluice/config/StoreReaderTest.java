package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.places;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreReaderTest {
  private static StoreSettings store(String yaml, Map<String, String> env) throws Exception {
    return ConfigParser.parse("f.yaml", yaml + "rules: []\n", env).store();
  }

  private static List<ConfigError> errors(String yaml, Map<String, String> env) {
    try {
      ConfigParser.parse("f.yaml", yaml + "rules: []\n", env);
    } catch (InvalidConfigException e) {
      return e.errors();
    }
    throw new AssertionError("expected errors");
  }

  @Test
  void standaloneClusterAndSentinel() throws Exception {
    assertThat(store("store: { type: redis, redis: { url: redis://127.0.0.1:6380 } }\n", Map.of()))
        .hasToString(
            "redis 127.0.0.1:6380 timeout 50ms pool 32 (key_prefix rl, fleet auto,"
                + " max_keys 1000000)");
    assertThat(
            store(
                """
                store:
                  type: redis
                  key_prefix: app1
                  redis:
                    cluster: [redis://a:7000, redis://b:7001]
                    timeout: 20ms
                    pool_size: 8
                fleet: { size: 12 }
                """,
                Map.of()))
        .hasToString(
            "redis cluster a:7000,b:7001 timeout 20ms pool 8"
                + " (key_prefix app1, fleet 12, max_keys 1000000)");
    assertThat(
            store(
                    """
                    store:
                      type: redis
                      redis: { sentinel: { master: mymaster, nodes: [redis://s1:26379] } }
                    """,
                    Map.of())
                .toString())
        .startsWith("redis sentinel mymaster via s1:26379");
  }

  @Test
  void aPasswordComesFromTheEnvironmentAndIsNeverShown() throws Exception {
    StoreSettings settings =
        store(
            "store: { type: redis, redis: { url: 'redis://:${REDIS_PASSWORD}@r:6379/2' } }\n",
            Map.of("REDIS_PASSWORD", "s3cret"));
    assertThat(settings.toString()).doesNotContain("s3cret").contains("r:6379");
    assertThat(
            errors(
                "store: { type: redis, redis: { url: 'redis://:${REDIS_PASSWORD}@r:6379' } }\n",
                Map.of()))
        .singleElement()
        .satisfies(e -> assertThat(e.message()).contains("REDIS_PASSWORD").contains("not set"));
  }

  @Test
  void aChangedPasswordMakesAnotherStoreThoughNoLogShowsIt() throws Exception {
    String yaml = "store: { type: redis, redis: { url: 'redis://:${P}@r:6379' } }\n";
    StoreSettings before = store(yaml, Map.of("P", "old"));
    StoreSettings after = store(yaml, Map.of("P", "new"));
    assertThat(after).isNotEqualTo(before).hasToString(before.toString());
    assertThat(store(yaml, Map.of("P", "old"))).isEqualTo(before).hasSameHashCodeAs(before);
  }

  @Test
  void aChangedFleetMinimumMakesAnotherStore() throws Exception {
    String redis = "store: { type: redis, redis: { url: 'redis://r:6379' } }\n";
    StoreSettings two = store(redis + "fleet: { size: auto, min: 2 }\n", Map.of());
    StoreSettings three = store(redis + "fleet: { size: auto, min: 3 }\n", Map.of());
    assertThat(three).isNotEqualTo(two);
    assertThat(store(redis + "fleet: { size: auto, min: 2 }\n", Map.of()))
        .isEqualTo(two)
        .hasSameHashCodeAs(two);
  }

  @Test
  void mistakesAreReportedWithTheirPlace() {
    assertThat(
            places(
                """
                store:
                  type: redis
                  key_prefix: "{x}"
                  redis:
                    url: http://r:6379
                    timeout: soon
                fleet: { size: many }
                rules: []
                """))
        .containsExactly(
            "3 store.key_prefix", "5 store.redis.url", "6 store.redis.timeout", "7 fleet.size");
    assertThat(
            places(
                """
                store:
                  type: redis
                  redis: { url: 'redis://a:1', cluster: ['redis://b:2'] }
                rules: []
                """))
        .containsExactly("3 store.redis.url");
  }

  /**
   * The fewest JVMs an auto fleet is taken for: what a JVM starting while Redis is down divides by.
   */
  @Test
  void anAutoFleetMayHaveAMinimum() throws Exception {
    String redis = "store: { type: redis, redis: { url: redis://r:6379 } }\n";
    assertThat(store(redis + "fleet: { size: auto, min: 4 }\n", Map.of()).toString())
        .contains("fleet auto min 4,");
    assertThat(store(redis + "fleet: { min: 4 }\n", Map.of()).toString())
        .as("auto is the default size")
        .contains("fleet auto min 4,");
    assertThat(store(redis + "fleet: { size: auto }\n", Map.of()).toString())
        .contains("fleet auto,");
    assertThat(
            places(
                """
                fleet:
                  size: 4
                  min: 2
                rules: []
                """))
        .containsExactly("3 fleet.min");
    assertThat(errors(redis + "fleet: { size: auto, min: 0 }\n", Map.of()))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.field()).isEqualTo("fleet.min");
              assertThat(e.message())
                  .isEqualTo("must be a number of JVMs from 1 to 999999, got \"0\"");
            });
    assertThat(errors("fleet: { size: 2, min: 2 }\n", Map.of()))
        .singleElement()
        .satisfies(e -> assertThat(e.message()).isEqualTo("applies to size: auto only"));
  }

  @Test
  void memoryIgnoresNothingSilently() {
    assertThat(places("store: { type: memory, redis: { url: 'redis://a:1' } }\nrules: []\n"))
        .containsExactly("1 store.redis");
  }

  @Test
  void aPasswordWrittenOutInTheFileIsWarnedAboutAndStillUsed() throws Exception {
    String written = "store: { type: redis, redis: { url: \"redis://app:s3cret@r:6379\" } }\n";
    Config config = ConfigParser.parse("f.yaml", written + "rules: []\n", Map.of());
    assertThat(config.store().toString()).startsWith("redis r:6379");
    assertThat(config.warnings())
        .singleElement()
        .asString()
        .startsWith("f.yaml:1:")
        .contains("redis.url: " + StoreReader.PASSWORD_WRITTEN_OUT)
        .doesNotContain("s3cret");
    for (String url :
        List.of(
            "redis://:${REDIS_PASSWORD}@r:6379",
            "redis://${USER}:${REDIS_PASSWORD}@r:6379",
            "redis://app@r:6379",
            "redis://r:6379",
            "${REDIS_URL}")) {
      String yaml = "store: { type: redis, redis: { url: \"" + url + "\" } }\nrules: []\n";
      Map<String, String> env =
          Map.of("REDIS_PASSWORD", "p", "USER", "u", "REDIS_URL", "redis://:p@r:6379");
      assertThat(ConfigParser.parse("f.yaml", yaml, env).warnings()).as(url).isEmpty();
    }
  }
}
