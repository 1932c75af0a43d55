package dev.sluice.it;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.BundledLibraries;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: a plain WAR on Tomcat 11 that bundles Jedis 5 and SnakeYAML 1.33 (with commons-pool2
 * and SLF4J 1.7) in WEB-INF/lib and uses them itself, next to the published sluice-filter,
 * sluice-core and sluice-redis jars with a rule counting in real Redis. The app keeps its own
 * versions and its Jedis talks to Redis; the Filter runs on the Jedis and SnakeYAML Sluice's jars
 * bundle, relocated, never on the app's. Tomcat loads a web app's own jars before its parent's, so
 * the WAR's copies win over this JVM's class path.
 */
class FilterBundledLibrariesIT {
  private static final String PREFIX = "warit";

  private static RedisServer redis;
  private static AgentWebApp app;
  private static Map<String, String> versions;
  private static Tomcat11 tomcat;
  private static Http http;

  @BeforeAll
  static void deploy() throws Exception {
    redis = RedisServers.standalone();
    app =
        AgentWebApp.create(
            false,
            RedisCountedRule.yaml(PREFIX, redis.uri(), "hello", "/api/hello"),
            BundledLibraries.SERVLET,
            AgentWebApp.Part.SLUICE_FILTER);
    versions = BundledLibraries.bundle(app);
    tomcat = new Tomcat11();
    http = new Http(tomcat.start(app.dir()));
  }

  @AfterAll
  static void undeploy() throws Exception {
    try {
      if (tomcat != null) {
        tomcat.stop();
      }
    } finally {
      if (app != null) {
        app.delete();
      }
      redis.close();
    }
  }

  @Test
  void theAppUsesItsOwnJedisAndSnakeYaml() throws Exception {
    HttpResponse<String> response =
        http.get("/libraries?redis=" + redis.host() + ":" + redis.port(), "10.22.2.1");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    Map<String, String> seen = BundledLibraries.parse(response.body());
    for (String[] library : new String[][] {{"jedis", "jedis"}, {"snakeyaml", "snakeyaml"}}) {
      String version = versions.get(library[1]);
      assertThat(seen)
          .as("what the app sees of %s: %s", library[0], response.body())
          .containsEntry(
              library[0] + ".jar",
              app.dir().resolve("WEB-INF/lib/" + library[1] + "-" + version + ".jar").toString())
          .containsEntry(library[0] + ".pomVersion", version)
          .containsEntry(library[0] + ".fromWebAppLoader", "true");
    }
    assertThat(versions).containsEntry("jedis", "5.2.0").containsEntry("snakeyaml", "1.33");
    assertThat(seen)
        .containsEntry("snakeyaml.load", "{answer=42}")
        .containsEntry("jedis.roundTrip", "v1")
        .doesNotContainKeys("jedis.error", "snakeyaml.error", "use.error");
    assertThat(RedisProbe.once(redis.host(), redis.port(), "GET", "app:k"))
        .as("what the app's Jedis wrote")
        .isEqualTo("v1");
  }

  @Test
  void theFilterLimitsCountingInRedis() throws Exception {
    String client = "10.22.3.1";
    int served = http.served();
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = http.get("/api/hello", client);
      assertThat(allowed.statusCode()).as("request %d: %s", i, allowed.body()).isEqualTo(200);
      assertThat(number(allowed, LIMIT)).isEqualTo(3);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
    }
    assertThat((List<?>) RedisProbe.once(redis.host(), redis.port(), "KEYS", PREFIX + "{*"))
        .as("Sluice's counters in Redis")
        .isNotEmpty();
    assertRejected(http.get("/api/hello", client), "hello");
    assertThat(http.served() - served).as("requests the app served").isEqualTo(3);
  }
}
