package dev.sluice.it;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.boot.BootJar;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 22: a Spring Boot 3.5 app whose own data lives in Redis through Spring Data Redis on Jedis,
 * at the version Boot manages (it-tests/apps/boot3-redis-app, Boot's parent POM), with Sluice's
 * Filter registered as a bean and counting in the same Redis (sluice-filter and sluice-redis in its
 * POM, as a Filter user with the Redis store writes it). Boot's dependency management used to
 * replace the Jedis and SnakeYAML Sluice was built with; now Sluice's copies are its own, relocated
 * inside sluice-core's and sluice-redis's jars, and the app's Jedis is the app's business alone.
 * One Boot start for the class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BootRedisFilterIT {
  private static final String PREFIX = "bootit";

  private RedisServer redis;
  private Path config;
  private BootJar app;
  private Http http;

  @BeforeAll
  void start() throws Exception {
    redis = RedisServers.standalone();
    config = Files.createTempFile("sluice-boot-redis-it", ".yaml");
    Files.writeString(config, RedisCountedRule.yaml(PREFIX, redis.uri(), "notes", "/api/notes/**"));
    app =
        BootJar.start(
            "sluice.it.bootRedisJar",
            List.of(),
            List.of(
                "--sluice.config=" + config,
                "--spring.data.redis.client-type=jedis",
                "--spring.data.redis.host=" + redis.host(),
                "--spring.data.redis.port=" + redis.port()));
    http = app.http();
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (app != null) {
        app.stop();
        assertThat(app.output())
            .as("what the app logged")
            .doesNotContain("NoSuchMethodError")
            .doesNotContain("NoClassDefFoundError");
      }
    } finally {
      Files.deleteIfExists(config);
      if (redis != null) {
        redis.close();
      }
    }
  }

  @Test
  void theAppsOwnRedisRunsOnBootsJedis() throws Exception {
    HttpResponse<String> libraries = http.get("/libraries", "10.22.0.1");
    assertThat(libraries.statusCode()).as(libraries.body()).isEqualTo(200);
    assertThat(libraries.body())
        .as("the app's Redis client")
        .contains("connections=JedisConnectionFactory")
        .contains("jedis=6.0.0");

    HttpResponse<String> written = http.get("/api/notes/colour?write=teal", "10.22.0.2");
    assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
    assertThat(written.body()).isEqualTo("teal");
    assertThat(RedisProbe.once(redis.host(), redis.port(), "GET", "note:colour"))
        .as("what Spring Data wrote")
        .isEqualTo("teal");
    RedisProbe.once(redis.host(), redis.port(), "SET", "note:shape", "round");
    HttpResponse<String> read = http.get("/api/notes/shape", "10.22.0.3");
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    assertThat(read.body()).as("what Spring Data read").isEqualTo("round");
  }

  @Test
  void sluiceCountsInRedisThenRejects() throws Exception {
    String client = "10.22.1.1";
    for (int i = 1; i <= 2; i++) {
      HttpResponse<String> allowed = http.get("/api/notes/n", client);
      assertThat(allowed.statusCode()).as("request %d: %s", i, allowed.body()).isEqualTo(200);
      assertThat(number(allowed, LIMIT)).isEqualTo(3);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
    }
    List<?> keys = (List<?>) RedisProbe.once(redis.host(), redis.port(), "KEYS", PREFIX + "{*");
    assertThat(keys).as("Sluice's counters in Redis").isNotEmpty();

    // The count is Redis's: with its keys gone, the client starts afresh.
    for (Object key : keys) {
      RedisProbe.once(redis.host(), redis.port(), "DEL", key.toString());
    }
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = http.get("/api/notes/n", client);
      assertThat(allowed.statusCode()).as("request %d after DEL", i).isEqualTo(200);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
    }
    assertRejected(http.get("/api/notes/n", client), "notes");
  }
}
