package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.core.Decision;
import dev.sluice.core.TestRequest;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.metrics.RuleStats;
import dev.sluice.store.Clock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rollout on a real Redis: a reload adds two rules, which run in shadow ({@code
 * rollout.shadow_for}), beside an enforced one. A request matching all three costs one round trip
 * (one script run, standalone), not one per rule; with Redis paused, it waits one {@code timeout},
 * not one per rule; and the shadow rules count exactly what they would have alone.
 */
class ShadowRoundTripsIT extends WithOwnRedisProcess {
  private static final int TIMEOUT_MILLIS = 300;
  private static final AtomicInteger PREFIXES = new AtomicInteger();

  @TempDir Path dir;

  @AfterEach
  void healthyRedis() {
    redis.restart(); // whatever a test did to it, the next one starts from a healthy server
  }

  private Path write(int timeoutMillis, String rules) throws Exception {
    String yaml =
        """
        store:
          type: redis
          key_prefix: shadow%d-%d
          redis: { url: "%s", timeout: %dms }
        fleet: { size: 4 }
        rollout: { shadow_for: 10m }
        rules:
          - { id: warm, match: { path: /warm }, key: ip, limit: 100, window: 1m }
          - { id: api, match: { path: "/api/**" }, key: ip, limit: 100, window: 1m }
        %s\
        """
            .formatted(
                ProcessHandle.current().pid(), PREFIXES.get(), redis.uri(), timeoutMillis, rules);
    // Read by hand (reload), never by a watcher: no half-written file to fear.
    return Files.writeString(dir.resolve("ratelimit.yaml"), yaml, StandardCharsets.UTF_8);
  }

  /**
   * A limiter whose file first holds warm and api (enforcing from the start), then, reloaded, adds
   * two rules on trial over /api: one per IP (limit 3), one global (limit 4), so one of them counts
   * another identity, on another slot of a cluster.
   */
  private LiveLimiter rollingOut(int timeoutMillis) throws Exception {
    PREFIXES.incrementAndGet();
    LiveLimiter live =
        LiveLimiter.manual(
            ConfigSource.of(write(timeoutMillis, "").toString(), null), Clock.SYSTEM);
    write(
        timeoutMillis,
        """
          - { id: trial-ip, match: { path: "/api/**" }, key: ip, limit: 3, window: 1m }
          - { id: trial-all, match: { path: "/api/**" }, key: global, limit: 4, window: 1m }
        """);
    live.reload();
    assertThat(live.metrics().trials()).containsOnlyKeys("trial-ip", "trial-all");
    // Redis learns the script on the first call (NOSCRIPT, then by text): not a request's cost.
    decide(live, "/warm");
    return live;
  }

  private static Decision decide(LiveLimiter live, String path) {
    return decide(live, path, "10.0.0.1");
  }

  private static Decision decide(LiveLimiter live, String path, String client) {
    return live.limiter().decide(TestRequest.get(path).from(client));
  }

  private static RuleStats rule(LiveLimiter live, String id) {
    return live.metrics().rules().stream()
        .filter(r -> r.ruleId().equals(id))
        .findFirst()
        .orElseThrow();
  }

  /** Script runs Redis has served, by SHA-1 or by text, from INFO commandstats. */
  private static long scriptRuns() {
    long runs = 0;
    Matcher m =
        Pattern.compile("cmdstat_(?:evalsha|eval):calls=(\\d+)")
            .matcher(jedis.info("commandstats"));
    while (m.find()) {
      runs += Long.parseLong(m.group(1));
    }
    return runs;
  }

  @Test
  void aRequestMatchingOneEnforcedAndTwoShadowRulesTakesOneRoundTrip() throws Exception {
    try (LiveLimiter live = rollingOut(TIMEOUT_MILLIS)) {
      long roundTrips = live.metrics().store().allRoundTrips().count();
      long runs = scriptRuns();
      for (int i = 0; i < 6; i++) {
        assertThat(decide(live, "/api/orders").allowed()).as("request %d", i).isTrue();
      }
      assertThat(live.metrics().store().allRoundTrips().count() - roundTrips)
          .as("round trips of 6 requests, each matching 3 rules")
          .isEqualTo(6);
      assertThat(scriptRuns() - runs).as("script runs on a standalone server").isEqualTo(6);

      // Exactly what each rule alone would have counted.
      assertThat(rule(live, "api").allowed()).isEqualTo(6);
      assertThat(rule(live, "api").denied()).isZero();
      assertThat(rule(live, "trial-ip").allowed()).isEqualTo(3);
      assertThat(rule(live, "trial-ip").shadowDenied()).isEqualTo(3);
      assertThat(rule(live, "trial-all").allowed()).isEqualTo(4);
      assertThat(rule(live, "trial-all").shadowDenied()).isEqualTo(2);
      assertThat(live.metrics().store().errors()).isZero();
      for (String id : new String[] {"api", "trial-ip", "trial-all"}) {
        assertThat(rule(live, id).decidedLocally()).as(id).isZero();
      }
    }
  }

  @Test
  void aPausedRedisCostsTheRequestOneTimeoutNotOneARule() throws Exception {
    try (LiveLimiter live = rollingOut(TIMEOUT_MILLIS)) {
      redis.pause();
      long elapsedMillis;
      Decision decision;
      try {
        long start = System.nanoTime();
        decision = decide(live, "/api/orders");
        elapsedMillis = (System.nanoTime() - start) / 1_000_000;
      } finally {
        redis.resume();
      }
      System.out.printf(
          "a request of 1 enforced and 2 shadow rules, Redis paused: %d ms (timeout %d ms)%n",
          elapsedMillis, TIMEOUT_MILLIS);
      // Before: a timeout per rule, one after the other (3); any two in a row would fail this.
      assertThat(elapsedMillis).isLessThan(TIMEOUT_MILLIS * 2);
      assertThat(decision.allowed()).as("fail_open: this JVM's share").isTrue();
      for (String id : new String[] {"api", "trial-ip", "trial-all"}) {
        assertThat(rule(live, id).decidedLocally()).as(id).isEqualTo(1);
        assertThat(rule(live, id).allowed()).as(id).isEqualTo(1);
      }
    }
  }

  /**
   * More callers than the store has lanes, so calls also queue for the senders: every shadow rule
   * still counts each request exactly once, in Redis (a budget long enough for a loaded machine,
   * since a request decided locally would prove nothing here).
   */
  @Test
  void underLoadEachShadowRuleCountsEachRequestOnce() throws Exception {
    int threads = 16;
    int each = 40;
    try (LiveLimiter live = rollingOut(5_000)) {
      OnThreads.run(
          threads,
          thread -> {
            for (int i = 0; i < each; i++) {
              decide(live, "/api/orders", "10.1." + thread + "." + i);
            }
          });
      int requests = threads * each;
      assertThat(rule(live, "api").allowed()).isEqualTo(requests);
      assertThat(rule(live, "trial-ip").allowed()).as("one request per IP").isEqualTo(requests);
      assertThat(rule(live, "trial-all").allowed()).as("its global limit").isEqualTo(4);
      assertThat(rule(live, "trial-all").shadowDenied()).isEqualTo(requests - 4);
      for (String id : new String[] {"api", "trial-ip", "trial-all"}) {
        assertThat(rule(live, id).decidedLocally()).as(id).isZero();
      }
      assertThat(live.metrics().store().allRoundTrips().count())
          .as("round trips: at most one a request, and the warm-up's two")
          .isLessThanOrEqualTo(requests + 2);
    }
  }
}
