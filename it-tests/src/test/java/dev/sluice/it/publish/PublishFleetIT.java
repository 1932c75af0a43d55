package dev.sluice.it.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.RulesVersion;
import dev.sluice.it.jvm.ChildJvm;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.publish.Publish;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three JVMs whose files say {@code rules_from: redis}, each following by itself ({@link
 * RulesFollower}), and one place to publish for all of them: a push is in force everywhere within
 * two seconds (measured from the moment push starts to the moment each JVM's metrics show it); a
 * push of an invalid file, invalid content written into Redis by hand and Redis going away, or
 * coming back empty, all leave the version in force where it was.
 */
class PublishFleetIT {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration SOON = Duration.ofSeconds(10);
  private static final long PROPAGATION_LIMIT_MILLIS = 2_000;
  private static final String PREFIX = "fleetrules";

  @TempDir Path dir;
  private RedisProcess redis;
  private final List<ChildJvm> fleet = new ArrayList<>();

  @BeforeEach
  void startRedis() {
    redis = RedisServers.localProcess();
  }

  @AfterEach
  void stop() {
    fleet.forEach(ChildJvm::close);
    redis.close();
  }

  /** What a follower printed: when, the version in force, and the problem if it reports one. */
  private record Seen(long millis, String version, String problem) {
    static Seen parse(String line) {
      String[] f = line.split(" ", 5);
      return new Seen(Long.parseLong(f[1]), f[2], f[3].equals("ok") ? null : f[4]);
    }
  }

  private static Seen await(ChildJvm jvm, Duration timeout, Predicate<Seen> wanted)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Seen seen =
          Seen.parse(jvm.awaitLine("rules ", Duration.ofNanos(deadline - System.nanoTime())));
      if (wanted.test(seen)) {
        return seen;
      }
    }
  }

  /** The next state each JVM prints, which must be {@code expected}: nothing came in between. */
  private void nextIs(Predicate<Seen> expected, String what) throws InterruptedException {
    for (ChildJvm jvm : fleet) {
      Seen next = Seen.parse(jvm.awaitLine("rules ", SOON));
      assertThat(expected).as(what + ", got " + next).accepts(next);
    }
  }

  private static Predicate<Seen> inForce(String version) {
    return s -> s.version().equals(version) && s.problem() == null;
  }

  private static Predicate<Seen> keeping(String version, String problem) {
    return s ->
        s.version().equals(version) && s.problem() != null && s.problem().startsWith(problem);
  }

  private Path write(String name, String yaml) throws Exception {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, yaml);
  }

  private static String versionOf(Path file) throws Exception {
    return RulesVersion.of(Files.readAllBytes(file));
  }

  private static String rules(int limit) {
    return "rules: [{ id: api, match: { path: /api/** }, key: ip, limit: "
        + limit
        + ", window: 1m }]\n";
  }

  private int push(Path file) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Publish.run(
            "sluice",
            "push",
            new String[] {file.toString(), "--redis", redis.uri(), "--key-prefix", PREFIX},
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    System.out.print(out.toString(StandardCharsets.UTF_8));
    return code;
  }

  /** Pushes {@code file} and returns how long the slowest JVM took to put it in force. */
  private long propagate(Path file, String what) throws Exception {
    String version = versionOf(file);
    long pushedAt = System.currentTimeMillis();
    assertThat(push(file)).isZero();
    long slowest = 0;
    for (ChildJvm jvm : fleet) {
      slowest = Math.max(slowest, await(jvm, SOON, inForce(version)).millis() - pushedAt);
    }
    System.out.printf(
        "[publish] %s in force in all %d JVMs %d ms after push began%n",
        what, fleet.size(), slowest);
    assertThat(slowest).as(what).isLessThan(PROPAGATION_LIMIT_MILLIS);
    return slowest;
  }

  @Test
  void aFleetFollowsEveryPushAndKeepsWhatWasInForceWhenThingsGoWrong() throws Exception {
    // In a directory of its own: a file written next to it would wake the JVMs' file watchers,
    // which would then read Redis at once rather than at their next poll.
    Path local =
        write(
            "jvm/local.yaml",
            "rules_from: redis\n"
                + "store: { type: redis, key_prefix: "
                + PREFIX
                + ", redis: { url: "
                + redis.uri()
                + " } }\n"
                + "fleet: { size: 3 }\n"
                + rules(1000));
    for (int i = 0; i < 3; i++) {
      fleet.add(ChildJvm.start("follower-" + i, RulesFollower.class, local.toString()));
    }
    for (ChildJvm jvm : fleet) {
      await(jvm, START, inForce(versionOf(local)));
    }

    Path first = write("first.yaml", rules(10));
    propagate(first, "the first push");

    Path bad = write("bad.yaml", rules(0));
    assertThat(push(bad)).as("an invalid file is refused").isEqualTo(1);
    Thread.sleep(2_000); // two polls: had anything been published, every JVM would show it now
    RedisProbe.once(
        redis.host(), redis.port(), "HSET", "{" + PREFIX + ":rules}:v:99", "content", rules(-1));
    RedisProbe.once(redis.host(), redis.port(), "SET", "{" + PREFIX + ":rules}:current", "99");
    nextIs(
        keeping(versionOf(first), "Sluice rejected version 99 published in redis "),
        "nothing between the first push and the content written by hand, which is rejected");

    Path second = write("second.yaml", rules(20));
    propagate(second, "a push after invalid content");

    redis.kill();
    try {
      nextIs(
          keeping(versionOf(second), "Sluice cannot read the rules published in redis "),
          "Redis down");
    } finally {
      redis.restart();
    }
    nextIs(
        keeping(versionOf(second), "Sluice found no version published in redis "),
        "Redis back, empty");
    propagate(write("third.yaml", rules(30)), "a push once Redis is back");
  }
}
