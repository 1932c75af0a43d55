package dev.sluice.it.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.config.RulesVersion;
import dev.sluice.it.redis.KeySlot;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.publish.Publish;
import dev.sluice.store.Clock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Publishing on a real Redis Cluster: every key of the published versions lives on the one slot of
 * their hash tag, so publish.lua runs there atomically; the commands take the seed nodes with
 * {@code --cluster}, and a JVM whose store is the cluster follows what they publish.
 */
class PublishOnClusterIT {
  private static RedisClusterHandle cluster;

  @TempDir Path dir;

  @BeforeAll
  static void startCluster() {
    cluster = RedisServers.cluster(3, 0);
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  private int run(String command, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--cluster");
    all.add(String.join(",", cluster.seedUris()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Publish.run(
            "sluice",
            command,
            all.toArray(String[]::new),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    System.out.print(out.toString(StandardCharsets.UTF_8));
    return code;
  }

  private static String rules(int limit) {
    return "rules: [{ id: a, match: { path: /a }, key: ip, limit: " + limit + ", window: 1m }]\n";
  }

  @Test
  void everyKeyIsOnTheSlotOfTheTagAndAClusterJvmFollows() throws Exception {
    Path first = Files.writeString(dir.resolve("first.yaml"), rules(1));
    Path second = Files.writeString(dir.resolve("second.yaml"), rules(2));
    assertThat(run("push", first.toString())).isZero();
    assertThat(run("push", second.toString(), "--message", "two")).isZero();
    assertThat(run("rollback", "1")).isZero();
    assertThat(run("history")).isZero();

    RedisProcess owner = cluster.masterForKey("{rl:rules}");
    for (RedisProcess master : cluster.masters()) {
      try (RedisProbe probe = master.probe()) {
        List<String> keys =
            ((List<?>) probe.call("KEYS", "{rl:rules}*")).stream().map(String::valueOf).toList();
        if (master.port() == owner.port()) {
          assertThat(keys)
              .containsExactlyInAnyOrder(
                  "{rl:rules}:seq",
                  "{rl:rules}:current",
                  "{rl:rules}:history",
                  "{rl:rules}:v:1",
                  "{rl:rules}:v:2",
                  "{rl:rules}:v:3");
          for (String key : keys) {
            assertThat(probe.callLong("CLUSTER", "KEYSLOT", key))
                .isEqualTo(KeySlot.of("{rl:rules}"));
          }
        } else {
          assertThat(keys).as("master " + master.port()).isEmpty();
        }
      }
    }

    Path local =
        Files.writeString(
            dir.resolve("local.yaml"),
            "rules_from: redis\n"
                + "store: { type: redis, redis: { cluster: ["
                + String.join(", ", cluster.seedUris())
                + "] } }\n"
                + "rules: []\n");
    try (LiveLimiter live =
        LiveLimiter.manual(ConfigSource.of(local.toString(), null), Clock.SYSTEM)) {
      assertThat(live.metrics().config().version())
          .as("version 3, the rollback to the first file")
          .isEqualTo(RulesVersion.of(Files.readAllBytes(first)));
      assertThat(run("push", second.toString())).isZero();
      live.reload();
      assertThat(live.metrics().config().version())
          .isEqualTo(RulesVersion.of(Files.readAllBytes(second)));
    }
  }
}
