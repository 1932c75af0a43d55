package dev.sluice.it;

import static dev.sluice.it.Tomcat11RulesApiIT.etag;
import static dev.sluice.it.Tomcat11RulesApiIT.read;
import static dev.sluice.it.Tomcat11RulesApiIT.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.config.RulesVersion;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The rules API where the rules are published in a real Redis Cluster: a write through a Tomcat 11
 * is a new version on the cluster, which another limiter following the cluster puts in force, and a
 * stale {@code If-Match} publishes nothing there either.
 */
class Tomcat11RulesApiOnClusterIT {
  @Test
  void aWriteIsPublishedOnTheClusterAndFollowedThere() throws Exception {
    RedisClusterHandle cluster = RedisServers.cluster(3, 0);
    Container tomcat = new Tomcat11();
    String store =
        "rules_from: redis\nstore: { type: redis, key_prefix: apicluster, redis: { cluster: ["
            + String.join(", ", cluster.seedUris())
            + "] } }\n";
    WebApp app = WebApp.create(store + Tomcat11RulesApiIT.ADMIN + Tomcat11RulesApiIT.RULES);
    Path local = Files.createTempFile("sluice-cluster", ".yaml");
    try {
      Http http = new Http(tomcat.start(app.dir()));
      Files.writeString(local, store + "rules: []\n");
      String base = etag(read(http));
      assertThat(base).isEqualTo("\"v0\"");
      String document = Tomcat11RulesApiIT.RULES.replace("100", "9");
      HttpResponse<String> put = write(http, "PUT", "/_sluice/rules?message=nine", base, document);
      assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
      assertThat(etag(put)).isEqualTo("\"v1\"");
      HttpResponse<String> stale = write(http, "PUT", "/_sluice/rules", base, "rules: []\n");
      assertThat(stale.statusCode()).isEqualTo(412);
      assertThat(etag(stale)).isEqualTo("\"v1\"");
      try (LiveLimiter follower =
          LiveLimiter.manual(ConfigSource.of(local.toString(), null), Clock.SYSTEM)) {
        assertThat(follower.metrics().config().version())
            .isEqualTo(RulesVersion.of(document.getBytes(StandardCharsets.UTF_8)));
      }
    } finally {
      tomcat.stop();
      app.delete();
      Files.deleteIfExists(local);
      cluster.close();
    }
  }
}
