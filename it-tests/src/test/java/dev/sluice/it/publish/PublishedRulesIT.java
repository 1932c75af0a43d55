package dev.sluice.it.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.RulesVersion;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.publish.Publish;
import dev.sluice.store.redis.PublishedRules;
import dev.sluice.store.redis.PublishedVersion;
import dev.sluice.store.redis.RedisSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The versions published in a real Redis: what is kept of them, and how they are numbered. */
class PublishedRulesIT {
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final int MAX = ConfigSource.MAX_BYTES;
  private static RedisServer redis;

  private final String prefix = "published" + PREFIXES.incrementAndGet();
  private PublishedRules rules;

  @BeforeAll
  static void startRedis() {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  @BeforeEach
  void open() {
    rules = open(prefix);
  }

  @AfterEach
  void close() {
    rules.close();
  }

  private static PublishedRules open(String prefix) {
    return PublishedRules.open(
        RedisSettings.standalone(URI.create(redis.uri()), 1_000, 1), prefix, 1_000);
  }

  private long publish(byte[] content, String message) {
    return rules.publish(content, RulesVersion.of(content), "ops", "host-1", message, 0);
  }

  private static byte[] yaml(int limit) {
    return ("rules: [{ id: a, match: { path: /a }, key: ip, limit: " + limit + ", window: 1m }]\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void contentComesBackByteForByteWithWhereItCameFrom() {
    assertThat(rules.current()).as("nothing yet").isZero();
    byte[] content = {'#', ' ', (byte) 0xff, (byte) 0xc3, '\n', 'r', ':', ' ', '1', '\n'};
    assertThat(publish(content, "not UTF-8")).isEqualTo(1);
    assertThat(rules.current()).isEqualTo(1);
    PublishedVersion read = rules.read(1, MAX);
    assertThat(read.content()).isEqualTo(content);
    assertThat(read.rulesVersion()).isEqualTo(RulesVersion.of(content));
    assertThat(read.who()).isEqualTo("ops");
    assertThat(read.where()).isEqualTo("host-1");
    assertThat(read.note()).isEqualTo("not UTF-8");
    assertThat(read.time()).matches("20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(rules.read(2, MAX)).isNull();
  }

  @Test
  void theCurrentContentIsNotPublishedAgainButAnEarlierOneIs() {
    assertThat(publish(yaml(1), "")).isEqualTo(1);
    assertThat(publish(yaml(1), "again")).as("current already").isZero();
    assertThat(publish(yaml(2), "")).isEqualTo(2);
    assertThat(rules.publish(yaml(1), RulesVersion.of(yaml(1)), "ops", "h", "bad", 1)).isEqualTo(3);
    assertThat(rules.history(MAX))
        .extracting(PublishedVersion::number, PublishedVersion::note, PublishedVersion::content)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(3L, "rollback to version 1: bad", null),
            org.assertj.core.groups.Tuple.tuple(2L, "", null),
            org.assertj.core.groups.Tuple.tuple(1L, "", null));
  }

  /**
   * A field written by hand larger than a file may be is left in Redis, unread: the version says
   * so, {@code history} lists it with why, and {@code rollback} refuses it.
   */
  @Test
  void aFieldLargerThanAFileMayBeIsNotReadAndTheVersionSaysSo() {
    publish(yaml(1), "fine");
    publish(yaml(2), "second");
    String huge = "m".repeat(MAX + 1);
    try (RedisProbe probe = redis.probe()) {
      probe.call("HSET", "{" + prefix + ":rules}:v:1", "message", huge);
      long sent = Long.parseLong(probe.info("stats").get("total_net_output_bytes"));
      PublishedVersion read = rules.read(1, MAX);
      assertThat(read.refused())
          .isEqualTo("its message is 1048577 bytes, more than the 1048576 Sluice reads");
      assertThat(read.content()).isEqualTo(yaml(1));
      assertThat(read.who()).isEqualTo("ops");
      assertThat(read.note()).isEqualTo("not read: " + read.refused());
      assertThat(rules.history(MAX))
          .extracting(PublishedVersion::note)
          .containsExactly("second", "not read: " + read.refused());
      long received = Long.parseLong(probe.info("stats").get("total_net_output_bytes")) - sent;
      assertThat(received).as("bytes Redis sent: not the message").isLessThan(1 << 16);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Publish.run(
            "sluice",
            "rollback",
            new String[] {"1", "--redis", redis.uri(), "--key-prefix", prefix},
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "sluice rollback: version 1 was not read: its message is 1048577 bytes, more than the"
                + " 1048576 Sluice reads\n");
    assertThat(rules.current()).isEqualTo(2);
  }

  @Test
  void theLastFiftyVersionsAreKeptAndOlderOnesDeleted() {
    for (int i = 1; i <= PublishedRules.KEPT + 2; i++) {
      publish(yaml(i), "");
    }
    List<PublishedVersion> history = rules.history(MAX);
    assertThat(history).hasSize(PublishedRules.KEPT);
    assertThat(history.get(0).number()).isEqualTo(PublishedRules.KEPT + 2);
    assertThat(history.get(history.size() - 1).number()).isEqualTo(3);
    assertThat(rules.read(2, MAX)).isNull();
    try (RedisProbe probe = redis.probe()) {
      assertThat(probe.callLong("EXISTS", "{" + prefix + ":rules}:v:2")).isZero();
      assertThat(probe.callLong("EXISTS", "{" + prefix + ":rules}:v:3")).isOne();
    }
  }

  @Test
  void pushesAtOnceGetNumbersOfTheirOwn() throws Exception {
    ExecutorService pushers = Executors.newFixedThreadPool(4);
    Set<Long> numbers = ConcurrentHashMap.newKeySet();
    try {
      List<Future<?>> done = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        done.add(
            pushers.submit(
                () -> {
                  try (PublishedRules own = open(prefix)) {
                    for (int i = 0; i < 10; i++) {
                      byte[] content = yaml(1 + thread * 100 + i);
                      numbers.add(
                          own.publish(content, RulesVersion.of(content), "ops", "h", "", 0));
                    }
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pushers.shutdownNow();
    }
    assertThat(numbers).hasSize(40).allMatch(n -> n >= 1 && n <= 40);
    assertThat(rules.history(MAX)).hasSize(40);
    assertThat(rules.current()).isEqualTo(rules.history(MAX).get(0).number());
  }

  /**
   * A write based on a version (the admin endpoint's {@code If-Match}) publishes only while that
   * version is current: of writers based on the same version, at once, exactly one publishes.
   */
  @Test
  void aWriteBasedOnAVersionNoLongerCurrentPublishesNothing() throws Exception {
    byte[] first = yaml(1);
    assertThat(rules.publishOver(0, first, RulesVersion.of(first), "ops", "h", "")).isEqualTo(1);
    byte[] second = yaml(2);
    assertThat(rules.publishOver(0, second, RulesVersion.of(second), "ops", "h", ""))
        .as("based on none published, when version 1 is")
        .isEqualTo(-1);
    assertThat(rules.current()).isEqualTo(1);
    ExecutorService writers = Executors.newFixedThreadPool(4);
    Set<Long> numbers = ConcurrentHashMap.newKeySet();
    try {
      List<Future<Long>> done = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        byte[] content = yaml(10 + t);
        done.add(
            writers.submit(
                () -> {
                  try (PublishedRules own = open(prefix)) {
                    return own.publishOver(1, content, RulesVersion.of(content), "ops", "h", "");
                  }
                }));
      }
      for (Future<Long> f : done) {
        numbers.add(f.get());
      }
    } finally {
      writers.shutdownNow();
    }
    assertThat(numbers).as("one published, three refused").containsExactlyInAnyOrder(2L, -1L);
    assertThat(rules.current()).isEqualTo(2);
    assertThat(rules.history(MAX)).hasSize(2);
  }
}
