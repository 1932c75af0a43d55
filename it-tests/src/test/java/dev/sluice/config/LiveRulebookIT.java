package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.admin.Reply;
import dev.sluice.admin.RulesWrite;
import dev.sluice.algo.Algorithm;
import dev.sluice.core.TestRequest;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.store.Counters;
import dev.sluice.store.ForwardingStore;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.redis.PublishedRules;
import dev.sluice.store.redis.RedisSettings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules API over a limiter that follows a real Redis, reloaded by hand: writes after Redis lost
 * the published history (a restart without persistence), what the first write publishes of the
 * local file, and a write this JVM cannot put in force. Each test has a key prefix of its own;
 * {@code Tomcat11RulesApiIT} covers the HTTP in a real container.
 */
class LiveRulebookIT extends WithOwnRedisProcess {
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final String ADMIN =
      "admin:\n  token: tok-abcdefghijklmnop\n  write_token: { deploy: wtok-abcdefghijklmnop }\n";
  private static final String LOCAL_RULE =
      "rules:\n  - { id: local, match: { path: /local }, key: ip, limit: 1, window: 1m }\n";
  private static final String PUSHED_RULE =
      "rules: [{ id: pushed, match: { path: /pushed }, key: ip, limit: 1, window: 1m }]\n";

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final String prefix = "rulebook" + PREFIXES.incrementAndGet();

  private PublishedRules open() {
    return PublishedRules.open(
        RedisSettings.standalone(URI.create(redis.uri()), 1_000, 1), prefix, 1_000);
  }

  private Path local() throws Exception {
    return Files.writeString(
        dir.resolve("ratelimit.yaml"),
        "rules_from: redis\n"
            + "store: { type: redis, key_prefix: "
            + prefix
            + ", redis: { url: "
            + redis.uri()
            + " } }\n"
            + ADMIN
            + LOCAL_RULE);
  }

  /** A limiter following {@code file}, whose store runs out of memory making rule {@code boom}. */
  private LiveLimiter follow(Path file, String boom) {
    return LiveLimiter.manual(
        ConfigSource.of(file.toString(), null),
        clock,
        s ->
            new ForwardingStore(new MemoryStore(clock, 1_000, 0)) {
              @Override
              public Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
                if (ruleId.equals(boom)) {
                  throw new OutOfMemoryError("Java heap space");
                }
                return super.counters(ruleId, algorithm, windowMicros);
              }
            });
  }

  private long push(String yaml) {
    byte[] content = yaml.getBytes(StandardCharsets.UTF_8);
    try (PublishedRules published = open()) {
      return published.publish(content, RulesVersion.of(content), "tester", "here", "why", 0);
    }
  }

  private static RulesWrite write(RulesWrite.Kind kind, String body, String ifMatch)
      throws Exception {
    return RulesEditTest.write(kind, null, body, ifMatch);
  }

  /** Whether the rule at {@code path} is in force: its limit of one denies a second request. */
  private static boolean limits(LiveLimiter live, String path) {
    live.limiter().decide(TestRequest.get(path));
    return !live.limiter().decide(TestRequest.get(path)).allowed();
  }

  /**
   * Issue 28: after Redis lost the published history, every write got 412 for good: GET said "v2",
   * the script expected none current, and "v0" was refused too.
   */
  @Test
  void afterRedisLostTheHistoryAWriteBasedOnWhatIsInForceIsPublished() throws Exception {
    try (LiveLimiter live = follow(local(), null)) {
      push(PUSHED_RULE);
      push(PUSHED_RULE.replace("limit: 1", "limit: 2"));
      live.reload();
      LiveRulebook rulebook = new LiveRulebook(live);
      assertThat(rulebook.read().etag()).isEqualTo("\"v2\"");
      redis.restart();
      live.reload();
      assertThat(live.metrics().config().problem()).contains("no version published in redis");

      String next = PUSHED_RULE.replace("/pushed", "/next");
      Reply stale = rulebook.write(write(RulesWrite.Kind.REPLACE, next, "\"v0\""));
      assertThat(stale.status()).isEqualTo(412);
      assertThat(stale.etag()).as("what GET says, which a retry can use").isEqualTo("\"v2\"");
      assertThat(stale.detail()).startsWith("Redis holds no published version");

      Reply put = rulebook.write(write(RulesWrite.Kind.REPLACE, next, stale.etag()));
      assertThat(put.status()).as(put.body()).isEqualTo(200);
      assertThat(put.body()).contains("\"published\":true", "\"inForceHere\":true");
      assertThat(put.etag()).as("Redis numbers afresh").isEqualTo("\"v1\"");
      assertThat(rulebook.read().etag()).isEqualTo("\"v1\"");
      assertThat(limits(live, "/next")).isTrue();
    }
  }

  /**
   * Issue 27: the first write published the whole local file, store, admin (tokens and all) and
   * rules_from included.
   */
  @Test
  void theFirstWritePublishesNoneOfTheSectionsTheJvmKeepsOfItsOwn() throws Exception {
    try (LiveLimiter live = follow(local(), null);
        LogCapture log = LogCapture.of("dev.sluice.config")) {
      LiveRulebook rulebook = new LiveRulebook(live);
      assertThat(rulebook.read().etag()).isEqualTo("\"v0\"");
      assertThat(rulebook.read().body()).isEqualTo(LOCAL_RULE);
      Reply post =
          rulebook.write(
              write(
                  RulesWrite.Kind.ADD,
                  "{ id: more, match: { path: /more }, key: ip, limit: 1, window: 1m }",
                  "\"v0\""));
      assertThat(post.status()).as(post.body()).isEqualTo(201);
      assertThat(post.body())
          .contains("\"localFile\":\"" + dir.resolve("ratelimit.yaml") + " is unchanged");
      try (PublishedRules published = open()) {
        String content =
            new String(published.read(1, 1 << 20).content(), StandardCharsets.UTF_8);
        assertThat(content)
            .contains("id: local", "id: more")
            .doesNotContain("store", "admin", "rules_from", "tok-", "redis://");
      }
      assertThat(limits(live, "/more")).isTrue();
      assertThat(log.messages())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith("Sluice: deploy (from 10.0.0.1) added a rule")
                      .endsWith(
                          dir.resolve("ratelimit.yaml")
                              + " is unchanged: its rules are only the fallback under"
                              + " rules_from: redis"));
    }
  }

  /**
   * Issue 28: a write answered "published: true" when this JVM could not put it in force (an
   * OutOfMemoryError as its rules were allocated), and the status said "unchanged".
   */
  @Test
  void aWriteThisJvmCannotPutInForceIsSaidToBePublishedButNotInForceHere() throws Exception {
    try (LiveLimiter live = follow(local(), "boom")) {
      push(PUSHED_RULE);
      live.reload();
      LiveRulebook rulebook = new LiveRulebook(live);
      Reply post =
          rulebook.write(
              write(
                  RulesWrite.Kind.ADD,
                  "{ id: boom, match: { path: /boom }, key: ip, limit: 1, window: 1m }",
                  "\"v1\""));
      assertThat(post.status()).isEqualTo(500);
      assertThat(post.etag()).isEqualTo("\"v2\"");
      assertThat(post.detail())
          .startsWith("published as version 2 (the other JVMs of the fleet apply it on their own)")
          .contains("but not in force here: Sluice could not apply ", "OutOfMemoryError");
      assertThat(post.body()).contains("\"published\":true", "\"inForceHere\":false");
      assertThat(rulebook.read().etag()).isEqualTo("\"v1\"");
      assertThat(live.metrics().config().lastReload())
          .isEqualTo(dev.sluice.metrics.ConfigStatus.Reload.REJECTED);
      assertThat(limits(live, "/pushed")).as("the version in force stays").isTrue();
    }
  }

  /**
   * Issue 28: a JVM that started on a published version logged "admin endpoint at ... as published
   * version 1 says", while admin is always the local file's.
   */
  @Test
  void theAdminEndpointIsSaidToBeTheLocalFilesUnderAPublishedVersion() throws Exception {
    push(PUSHED_RULE);
    Path file = local();
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = follow(file, null)) {
      assertThat(limits(live, "/pushed")).isTrue();
      assertThat(log.messages())
          .filteredOn(line -> line.startsWith("Sluice: admin endpoint at "))
          .singleElement()
          .asString()
          .endsWith(" as " + file + " says");
    }
  }

  /**
   * Issue 28: a write held the limiter's lock through its round trips to Redis, so a GET of the
   * rules (and the watcher's polls) waited up to the client's timeout behind it.
   */
  @Test
  void aWriteWaitingForRedisHoldsUpNoRead() throws Exception {
    try (LiveLimiter live = follow(local(), null)) {
      push(PUSHED_RULE);
      live.reload();
      LiveRulebook rulebook = new LiveRulebook(live);
      RulesWrite write = write(RulesWrite.Kind.REPLACE, PUSHED_RULE.replace("1m", "1h"), "\"v1\"");
      AtomicReference<Reply> written = new AtomicReference<>();
      Thread writer = new Thread(() -> written.set(rulebook.write(write)), "rulebook-writer");
      redis.pause();
      try {
        writer.start();
        Thread.sleep(200); // the writer is waiting for Redis, which answers nothing for a second
        long asked = System.nanoTime();
        Reply read = rulebook.read();
        long waitedMillis = (System.nanoTime() - asked) / 1_000_000;
        assertThat(waitedMillis)
            .as("the read did not wait for the write, which waits a second for Redis")
            .isLessThan(500);
        assertThat(writer.isAlive()).isTrue();
        assertThat(read.etag()).isEqualTo("\"v1\"");
      } finally {
        redis.resume();
      }
      writer.join(10_000);
      assertThat(written.get().status()).as(written.get().body()).isIn(200, 503);
    }
  }
}
