package dev.sluice.core;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import dev.sluice.metrics.LimitedClient;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RoundTrips;
import dev.sluice.metrics.RuleStats;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class LimiterMetricsTest {
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final Metrics metrics = new Metrics(clock::micros);

  private static Rules rules(String yaml) throws InvalidConfigException {
    return ConfigParser.parse("test.yaml", "rules:\n" + yaml).rules();
  }

  private static String rule(String id, String rest) {
    return "  - { id: " + id + ", match: { path: /api/** }, " + rest + " }\n";
  }

  private RuleStats stats(String id) {
    return metrics.rules().stream().filter(r -> r.ruleId().equals(id)).findFirst().orElseThrow();
  }

  private static void decide(Limiter limiter, int times, String ip) {
    for (int i = 0; i < times; i++) {
      limiter.decide(TestRequest.get("/api/x").from(ip));
    }
  }

  @Test
  void eachRuleCountsWhatItAllowedAndDenied() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 1_000, 0), metrics);
    limiter.apply(
        rules(
            rule("per-ip", "key: ip, limit: 2, window: 1m")
                + rule("global", "key: global, limit: 100, window: 1m")));
    decide(limiter, 3, "10.0.0.1");

    assertThat(stats("per-ip").allowed()).isEqualTo(2);
    assertThat(stats("per-ip").denied()).isEqualTo(1);
    assertThat(stats("global").allowed()).isEqualTo(2);
    assertThat(stats("global").denied())
        .as("the third request was per-ip's denial; global took nothing of it")
        .isZero();
  }

  @Test
  void aShadowRuleCountsWhatItWouldHaveDenied() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 1_000, 0), metrics);
    limiter.apply(rules(rule("trial", "key: ip, limit: 1, window: 1m, shadow: true")));
    decide(limiter, 3, "10.0.0.1");

    assertThat(stats("trial").allowed()).isEqualTo(1);
    assertThat(stats("trial").shadowDenied()).isEqualTo(2);
    assertThat(stats("trial").denied()).isZero();
    assertThat(stats("trial").topLimited()).hasSize(1);
  }

  @Test
  void theClientsDeniedMostAreListedHashed() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 1_000, 0), metrics);
    limiter.apply(rules(rule("per-ip", "key: ip, limit: 1, window: 1m")));
    decide(limiter, 4, "10.0.0.1");
    decide(limiter, 2, "10.0.0.2");

    List<LimitedClient> top = stats("per-ip").topLimited();
    assertThat(top.stream().map(LimitedClient::getDenials).collect(Collectors.toList()))
        .containsExactly(3L, 1L);
    assertThat(top.get(0).getClient()).matches("ip=[0-9a-f]{12}");
  }

  @Test
  void aReloadKeepsTheCountsOfTheRulesItKeeps() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 1_000, 0), metrics);
    limiter.apply(rules(rule("per-ip", "key: ip, limit: 1, window: 1m")));
    decide(limiter, 2, "10.0.0.1");
    limiter.apply(rules(rule("per-ip", "key: ip, limit: 5, window: 1m")));
    decide(limiter, 1, "10.0.0.1");

    assertThat(stats("per-ip").allowed()).isEqualTo(2);
    assertThat(stats("per-ip").denied()).isEqualTo(1);
  }

  @Test
  void decisionsTheStoreMadeLocallyAreCountedByOnError() throws Exception {
    Limiter limiter = new Limiter(new Unreachable(), metrics);
    limiter.apply(rules(rule("open", "key: ip, limit: 5, window: 1m, on_error: fail_open")));
    decide(limiter, 2, "10.0.0.1");
    limiter.apply(rules(rule("closed", "key: ip, limit: 5, window: 1m, on_error: fail_closed")));
    decide(limiter, 3, "10.0.0.1");

    limiter.apply(
        rules(
            rule("open", "key: ip, limit: 5, window: 1m, on_error: fail_open")
                + rule("closed", "key: ip, limit: 5, window: 1m, on_error: fail_closed")));
    assertThat(stats("open").decidedLocally()).isEqualTo(2);
    assertThat(stats("open").allowed()).isEqualTo(2);
    assertThat(stats("closed").deniedLocally()).isEqualTo(3);
    assertThat(stats("closed").denied()).isEqualTo(3);
    assertThat(stats("closed").decidedLocally()).isZero();
  }

  @Test
  void theStoreInForceIsReported() {
    new Limiter(new Unreachable(), metrics);
    assertThat(metrics.store().type()).isEqualTo("redis");
    assertThat(metrics.store().fleetSize()).isEqualTo(4);
  }

  /** A shared store that cannot be reached: every rule decides locally by its on_error. */
  private static final class Unreachable implements Store {
    /** Counters as the memory store makes them: only their names matter here. */
    private final MemoryStore names = new MemoryStore(Clock.SYSTEM, 1_000, 0);

    @Override
    public Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
      return names.counters(ruleId, algorithm, windowMicros);
    }

    /** A shared store: what it reports must be what the metrics show. */
    @Override
    public StoreStatus status() {
      return StoreStatus.redis(new RoundTrips(() -> 0L), Collections.emptyMap(), 4);
    }

    @Override
    public void refund(List<Permit> permits) {
      // it never took anything
    }

    @Override
    public void peek(List<Permit> permits) {
      throw new IllegalStateException("unreachable");
    }

    @Override
    public void acquire(List<Permit> permits) {
      for (Permit permit : permits) {
        permit.verdict().set(permit.onError() == OnError.FAIL_OPEN, 0, SECOND, SECOND);
        permit.markDecidedLocally();
      }
    }

    @Override
    public void retainOnly(Collection<? extends Counters> live) {}

    @Override
    public void close() {}
  }
}
