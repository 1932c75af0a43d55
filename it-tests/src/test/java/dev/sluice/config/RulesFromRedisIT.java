package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.core.TestRequest;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.metrics.ConfigStatus;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.redis.PublishedRules;
import dev.sluice.store.redis.RedisSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A limiter whose file says {@code rules_from: redis}, reloaded by hand against a real Redis: what
 * it puts in force, logs and reports as a version is published, broken, lost and published again.
 * Each test has a key prefix of its own; {@code PublishFleetIT} does the same with JVMs that follow
 * by themselves.
 */
class RulesFromRedisIT extends WithOwnRedisProcess {
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final String LOCAL_RULE =
      "rules: [{ id: local, match: { path: /local }, key: ip, limit: 1, window: 1m }]\n";
  private static final String PUSHED_RULE =
      "rules: [{ id: pushed, match: { path: /pushed }, key: ip, limit: 1, window: 1m }]\n";

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final String prefix = "follow" + PREFIXES.incrementAndGet();
  private LogCapture log;

  @BeforeEach
  void captureTheLog() {
    log = LogCapture.of("dev.sluice.config");
  }

  @AfterEach
  void close() {
    log.close();
  }

  private PublishedRules open() {
    return PublishedRules.open(
        RedisSettings.standalone(URI.create(redis.uri()), 1_000, 1), prefix, 1_000);
  }

  private String store() {
    return "store: { type: redis, key_prefix: "
        + prefix
        + ", redis: { url: "
        + redis.uri()
        + " } }\n";
  }

  private Path local(String yaml) throws Exception {
    Path file = dir.resolve("ratelimit.yaml");
    Path next = dir.resolve("next.yaml");
    Files.writeString(next, yaml);
    return Files.move(next, file, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The local file: rules from Redis, and a rule of its own until a version is published. */
  private Path followingRedis() throws Exception {
    return local("rules_from: redis\n" + store() + LOCAL_RULE);
  }

  private LiveLimiter follow(Path file) {
    return LiveLimiter.manual(
        ConfigSource.of(file.toString(), null), clock, s -> new MemoryStore(clock, 1_000, 1_000));
  }

  /** Publishes on a client of its own, as each push does. */
  private long push(String yaml) {
    byte[] content = yaml.getBytes(StandardCharsets.UTF_8);
    try (PublishedRules published = open()) {
      return published.publish(content, RulesVersion.of(content), "tester", "here", "why", 0);
    }
  }

  /** Whether the rule at {@code path} is in force: its limit of one denies a second request. */
  private static boolean limits(LiveLimiter live, String path) {
    live.limiter().decide(TestRequest.get(path));
    return !live.limiter().decide(TestRequest.get(path)).allowed();
  }

  private static String version(String yaml) {
    return RulesVersion.of(yaml.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void withNothingPublishedTheLocalRulesAreInForceAndTheLogSaysSo() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      live.reload();
      assertThat(limits(live, "/local")).isTrue();
      assertThat(live.metrics().config().version())
          .isEqualTo(RulesVersion.of(Files.readAllBytes(file)));
      assertThat(live.metrics().config().lastReload()).isEqualTo(ConfigStatus.Reload.UNCHANGED);
      assertThat(log.messages())
          .filteredOn(m -> m.contains("no version is published"))
          .containsExactly(
              "Sluice: no version is published in redis "
                  + redis.host()
                  + ":"
                  + redis.port()
                  + " {"
                  + prefix
                  + ":rules} yet; the rules of "
                  + file
                  + " are in force until one is pushed");
    }
  }

  @Test
  void aPushIsInForceAtTheNextPollUnderTheLocalStore() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      String pushed = "store: { type: memory }\n" + PUSHED_RULE;
      assertThat(push(pushed)).isEqualTo(1);
      assertThat(live.reload()).isTrue();
      assertThat(live.metrics().config().version()).isEqualTo(version(pushed));
      assertThat(limits(live, "/pushed")).isTrue();
      assertThat(limits(live, "/local")).as("the local rules are not in force").isFalse();
      assertThat(live.reload()).as("unchanged: one GET, nothing to apply").isFalse();
      assertThat(log.messages())
          .anySatisfy(
              m ->
                  assertThat(m)
                      .startsWith("Sluice: applied published version 1 (pushed by tester on here")
                      .endsWith(
                          ": why) (rules version "
                              + version(pushed)
                              + "): added pushed (1/1m); removed local"))
          .filteredOn(m -> m.contains("not applied"))
          .singleElement()
          .asString()
          .contains("has store or fleet sections other than " + file + "'s");
    }
  }

  @Test
  void anEditOfTheLocalRulesUnderAPublishedVersionIsSaidToBeOnlyTheFallback() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(PUSHED_RULE);
      assertThat(live.reload()).isTrue();
      local("rules_from: redis\n" + store() + LOCAL_RULE.replace("/local", "/edited"));
      live.reload();
      assertThat(limits(live, "/edited")).as("the edit is not in force").isFalse();
      assertThat(log.messages())
          .filteredOn(m -> m.contains("only the fallback"))
          .singleElement()
          .asString()
          .startsWith(
              "Sluice: "
                  + file
                  + " changed, but its rules are only the fallback under rules_from: redis:"
                  + " published version 1 ");
    }
  }

  @Test
  void invalidContentWrittenIntoRedisIsRejectedAndTheLastGoodVersionStays() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(PUSHED_RULE);
      live.reload();
      RedisProbe.once(
          redis.host(), redis.port(), "HSET", "{" + prefix + ":rules}:v:7", "content", "rules: [");
      RedisProbe.once(redis.host(), redis.port(), "SET", "{" + prefix + ":rules}:current", "7");
      assertThat(live.reload()).isFalse();
      live.reload();
      assertThat(limits(live, "/pushed")).isTrue();
      ConfigStatus status = live.metrics().config();
      assertThat(status.version()).isEqualTo(version(PUSHED_RULE));
      assertThat(status.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
      assertThat(status.problem())
          .startsWith("Sluice rejected version 7 published in redis ")
          .contains("; published version 1 (pushed by ")
          .contains(" stays in force:\npublished version 7:1:")
          .contains("not valid YAML");
      assertThat(log.messages()).filteredOn(m -> m.startsWith("Sluice rejected")).hasSize(1);

      String fixed = PUSHED_RULE.replace("limit: 1", "limit: 2");
      push(fixed);
      assertThat(live.reload()).isTrue();
      assertThat(live.metrics().config().version()).isEqualTo(version(fixed));
      live.reload();
      assertThat(live.metrics().config().lastReload()).isEqualTo(ConfigStatus.Reload.UNCHANGED);
    }
  }

  @Test
  void anInvalidFirstVersionLeavesTheLocalRulesInForce() throws Exception {
    Path file = followingRedis();
    push("rules: [{ id: x, limit: 0 }]\n");
    try (LiveLimiter live = follow(file)) {
      assertThat(limits(live, "/local")).isTrue();
      assertThat(live.metrics().config().problem())
          .startsWith("Sluice rejected version 1 published in redis ")
          .contains("; the rules of " + file + " stay in force:\npublished version 1:1:");
    }
  }

  @Test
  void redisDownOrEmptiedKeepsTheVersionThatWasInForceUntilTheNextPush() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(PUSHED_RULE);
      live.reload();
      redis.kill();
      try {
        live.reload();
        assertThat(limits(live, "/pushed")).isTrue();
        assertThat(live.metrics().config().problem())
            .startsWith("Sluice cannot read the rules published in redis ")
            .endsWith(" stays in force");
      } finally {
        redis.restart();
      }
      live.reload();
      assertThat(limits(live, "/pushed")).isTrue();
      assertThat(live.metrics().config().problem())
          .startsWith("Sluice found no version published in redis ")
          .contains(" any more; published version 1 (pushed by ");
      String next = PUSHED_RULE.replace("/pushed", "/next");
      push(next);
      assertThat(live.reload()).isTrue();
      assertThat(live.metrics().config().version()).isEqualTo(version(next));
      assertThat(limits(live, "/next")).isTrue();
    }
  }

  /** Where the JVMs' versions live, as their log names it. */
  private String published() {
    return "redis " + redis.host() + ":" + redis.port() + " {" + prefix + ":rules}";
  }

  /** The log's lines that say the published history went back. */
  private List<String> wentBack() {
    return log.messages().stream().filter(m -> m.contains("went back")).toList();
  }

  /** The line that says the published history went back, and {@code how}. */
  private String wentBack(String how) {
    return "Sluice: the history of the versions published in "
        + published()
        + " went back (a Redis restarted without persistence, or a failover that lost the last"
        + " pushes): "
        + how
        + "; following what is published now";
  }

  private long sentByRedis() {
    try (RedisProbe probe = RedisProbe.connect(redis.host(), redis.port())) {
      return Long.parseLong(probe.info("stats").get("total_net_output_bytes"));
    }
  }

  @Test
  void aVersionLargerThanAFileMayBeIsRejectedWithoutBeingRead() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(PUSHED_RULE);
      live.reload();
      String huge = "#" + "x".repeat(4 << 20) + "\n" + PUSHED_RULE.replace("/pushed", "/huge");
      RedisProbe.once(
          redis.host(), redis.port(), "HSET", "{" + prefix + ":rules}:v:2", "content", huge);
      RedisProbe.once(redis.host(), redis.port(), "SET", "{" + prefix + ":rules}:current", "2");
      long sent = sentByRedis();
      assertThat(live.reload()).isFalse();
      assertThat(sentByRedis() - sent).as("bytes Redis sent: not the content").isLessThan(1 << 16);
      assertThat(limits(live, "/pushed")).isTrue();
      ConfigStatus status = live.metrics().config();
      assertThat(status.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
      assertThat(status.problem())
          .startsWith("Sluice rejected version 2 published in " + published() + "; published")
          .endsWith(
              " stays in force:\npublished version 2: not read: its content is "
                  + huge.length()
                  + " bytes, more than the 1048576 Sluice reads");
    }
  }

  /**
   * A Redis restarted without persistence numbers versions from 1 again (a failover that lost the
   * last pushes moves the sequence back the same way): a JVM that read version 1 before must follow
   * the new version 1, and say that the history went back.
   */
  @Test
  void aNumberPublishedAgainWithOtherContentIsFollowed() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(PUSHED_RULE);
      assertThat(live.reload()).isTrue();
      redis.restart();
      String next = PUSHED_RULE.replace("/pushed", "/next");
      assertThat(push(next)).as("numbered from 1 again").isEqualTo(1);
      assertThat(live.reload()).isTrue();
      assertThat(live.metrics().config().version()).isEqualTo(version(next));
      assertThat(limits(live, "/next")).isTrue();
      assertThat(live.reload()).as("read once, not at every poll").isFalse();
      assertThat(wentBack())
          .containsExactly(
              wentBack(
                  "version 1 is current again with other content (rules version "
                      + version(next)
                      + ", was "
                      + version(PUSHED_RULE)
                      + ")"));
    }
  }

  @Test
  void aNumberLowerThanTheOneReadIsFollowedAndSaidToGoBack() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(LOCAL_RULE);
      push(PUSHED_RULE);
      assertThat(live.reload()).isTrue();
      redis.restart();
      assertThat(push(PUSHED_RULE)).isEqualTo(1);
      assertThat(live.reload()).as("the same content: nothing to apply").isFalse();
      assertThat(live.reload()).isFalse();
      assertThat(wentBack())
          .containsExactly(wentBack("version 1 is current, after version 2 was read"));
      String next = PUSHED_RULE.replace("/pushed", "/next");
      assertThat(push(next)).isEqualTo(2);
      assertThat(live.reload()).isTrue();
      assertThat(limits(live, "/next")).isTrue();
      assertThat(wentBack()).hasSize(1);
    }
  }

  @Test
  void aLocalFileBrokenOrGoneStillFollowsThePushes() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(PUSHED_RULE);
      assertThat(live.reload()).isTrue();
      local("rules_from: redis\n" + store() + "rules: [ { id: x");
      assertThat(live.reload()).isFalse();
      ConfigStatus broken = live.metrics().config();
      assertThat(broken.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
      assertThat(broken.problem())
          .contains("Sluice rejected " + file, "not valid YAML", "are still followed");

      String next = PUSHED_RULE.replace("pushed", "next");
      push(next);
      assertThat(live.reload()).as("a push while the local file is broken").isTrue();
      assertThat(live.metrics().config().version()).isEqualTo(version(next));
      assertThat(limits(live, "/next")).isTrue();

      Files.delete(file);
      String third = PUSHED_RULE.replace("pushed", "third");
      push(third);
      assertThat(live.reload()).as("a push while the local file is gone").isTrue();
      assertThat(limits(live, "/third")).isTrue();
      assertThat(live.metrics().config().problem()).contains("found no config at " + file);
    }
  }

  @Test
  void aLocalFileThatStopsSayingRulesFromRedisPutsItsOwnRulesBack() throws Exception {
    Path file = followingRedis();
    try (LiveLimiter live = follow(file)) {
      push(PUSHED_RULE);
      live.reload();
      assertThat(limits(live, "/pushed")).isTrue();
      local(store() + LOCAL_RULE);
      assertThat(live.reload()).isTrue();
      assertThat(limits(live, "/local")).isTrue();
      assertThat(live.metrics().config().version())
          .isEqualTo(RulesVersion.of(Files.readAllBytes(file)));
    }
  }
}
