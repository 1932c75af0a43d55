package dev.sluice.core;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RuleStats;
import dev.sluice.store.BrokenStore;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExplainTest {
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND + 15 * SECOND);
  private final MemoryStore memory = new MemoryStore(clock, 1_000, 0);
  private final Metrics metrics = new Metrics(clock::micros);
  private final Limiter limiter = new Limiter(memory, metrics);

  private Limiter with(String yaml) throws InvalidConfigException {
    limiter.apply(ConfigParser.parse("test.yaml", yaml).rules());
    return limiter;
  }

  private static String rule(String id, String path, String rest) {
    return "  - { id: " + id + ", match: { path: \"" + path + "\" }, " + rest + " }\n";
  }

  private Explanation.Entry only(RequestView request) {
    Explanation explanation = limiter.explain(request);
    assertThat(explanation.skipped()).isNull();
    assertThat(explanation.entries()).hasSize(1);
    return explanation.entries().get(0);
  }

  @Test
  void requestsNoRuleAppliesToSayWhy() throws Exception {
    assertThat(limiter.explain(TestRequest.get("/x")).skipped()).isEqualTo("no rules");
    with("exclude: [/health]\nrules:\n" + rule("all", "/**", "key: ip, limit: 1, window: 1m"));
    Explanation excluded = limiter.explain(TestRequest.get("/health"));
    assertThat(excluded.skipped()).isEqualTo("excluded path");
    assertThat(excluded.entries()).isEmpty();
    TestRequest preflight =
        new TestRequest("OPTIONS", "/x")
            .header("Origin", "https://a.example")
            .header("Access-Control-Request-Method", "POST");
    assertThat(limiter.explain(preflight).skipped()).isEqualTo("CORS preflight");
  }

  @Test
  void explainsWhatTheNextRequestWouldGetWithoutTakingIt() throws Exception {
    with(
        "rules:\n"
            + rule("api", "/api/**", "key: ip, limit: 2, window: 1m, algorithm: fixed_window"));
    TestRequest request = TestRequest.get("/api/x").from("10.0.0.1");
    Explanation.Entry fresh = only(request);
    assertThat(fresh.matches()).isTrue();
    assertThat(fresh.identity()).isEqualTo("ip=10.0.0.1");
    assertThat(fresh.tier()).isNull();
    assertThat(fresh.limit()).isEqualTo(2);
    assertThat(fresh.windowMicros()).isEqualTo(60 * SECOND);
    assertThat(fresh.cost()).isEqualTo(1);
    assertThat(fresh.allowed()).isTrue();
    assertThat(fresh.remaining()).isEqualTo(1);
    assertThat(fresh.resetSeconds()).isEqualTo(45);
    assertThat(fresh.retryAfterSeconds()).isZero();
    assertThat(fresh.error()).isNull();
    assertThat(memory.keyCount()).as("nothing stored").isZero();

    limiter.decide(request);
    assertThat(only(request).remaining()).isZero();
    limiter.decide(request);
    Explanation.Entry denied = only(request);
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.retryAfterSeconds()).isEqualTo(45);
    assertThat(denied.resetSeconds()).isEqualTo(45);

    clock.advance(45 * SECOND);
    assertThat(only(request).allowed()).as("a new window").isTrue();
    assertThat(limiter.decide(request).allowed()).isTrue();
    assertThat(limiter.decide(request).allowed()).as("the explanations took nothing").isTrue();
    assertThat(limiter.decide(request).allowed()).isFalse();
  }

  /** A rule for another request, a shadow rule and an enforcing one for GET /api/x. */
  private static final String THREE_RULES =
      "rules:\n"
          + "  - { id: login, match: { path: /login, methods: [post] }, key: ip, limit: 5,"
          + " window: 1m }\n"
          + rule("trial", "/api/**", "key: global, limit: 1, window: 1m, shadow: true")
          + rule("per-ip", "/api/**", "key: ip, limit: 10, window: 1m");

  @Test
  void everyRuleIsExplainedInOrderShadowAndUnmatchedToo() throws Exception {
    with(THREE_RULES);
    limiter.decide(TestRequest.get("/api/x"));
    List<Explanation.Entry> entries = limiter.explain(TestRequest.get("/api/x")).entries();
    assertThat(entries)
        .extracting(Explanation.Entry::ruleId)
        .containsExactly("login", "trial", "per-ip");
    Explanation.Entry login = entries.get(0);
    assertThat(login.matches()).isFalse();
    assertThat(login.identity()).isNull();
    assertThat(login.limit()).isEqualTo(5);
    Explanation.Entry trial = entries.get(1);
    assertThat(trial.shadow()).isTrue();
    assertThat(trial.identity()).isEqualTo("global");
    assertThat(trial.allowed()).as("each rule alone: the shadow rule would deny").isFalse();
    assertThat(trial.retryAfterSeconds()).isPositive();
    assertThat(entries.get(2).allowed()).isTrue();
    assertThat(entries.get(2).remaining()).isEqualTo(8);
  }

  @Test
  void aRuleWhoseKeyTheRequestLacksMatchesWithoutAnIdentity() throws Exception {
    with("rules:\n" + rule("tenant", "/api/**", "key: header:X-Tenant, limit: 1, window: 1m"));
    Explanation.Entry none = only(TestRequest.get("/api/x"));
    assertThat(none.matches()).isTrue();
    assertThat(none.identity()).isNull();
    assertThat(none.error()).isNull();
    assertThat(only(TestRequest.get("/api/x").header("X-Tenant", "acme")).identity())
        .isEqualTo("h.x-tenant=acme");
  }

  @Test
  void aTieredRuleTellsTheTierAndItsLimit() throws Exception {
    with(
        "tiers: { api_keys: { pro: [gold-key] } }\nrules:\n"
            + rule("api", "/api/**", "key: api_key, limit: 1, window: 1m, tiers: { pro: 3 }"));
    Explanation.Entry pro = only(TestRequest.get("/api").header("X-API-Key", "gold-key"));
    assertThat(pro.tier()).isEqualTo("pro");
    assertThat(pro.limit()).isEqualTo(3);
    assertThat(pro.remaining()).isEqualTo(2);
    Explanation.Entry other = only(TestRequest.get("/api").header("X-API-Key", "k2"));
    assertThat(other.tier()).isNull();
    assertThat(other.limit()).isEqualTo(1);
  }

  @Test
  void aStoreThatCannotAnswerIsAnErrorOfTheRulesItWasAskedFor() throws Exception {
    Limiter failing = new Limiter(new BrokenStore());
    failing.apply(
        ConfigParser.parse(
                "test.yaml",
                "rules:\n"
                    + rule("per-ip", "/api/**", "key: ip, limit: 10, window: 1m")
                    + rule("tenant", "/api/**", "key: header:X-Tenant, limit: 1, window: 1m"))
            .rules());
    List<Explanation.Entry> entries = failing.explain(TestRequest.get("/api/x")).entries();
    assertThat(entries.get(0).error()).contains("broken on purpose");
    assertThat(entries.get(1).error()).as("not asked: no identity").isNull();
  }

  @Test
  void explainingCountsNothingInTheMetrics() throws Exception {
    with(THREE_RULES);
    limiter.decide(TestRequest.get("/api/x"));
    for (int i = 0; i < 3; i++) {
      limiter.explain(TestRequest.get("/api/x")); // the shadow rule would deny each
    }
    assertThat(metrics.rules()).extracting(RuleStats::allowed).containsExactly(0L, 1L, 1L);
    for (RuleStats stats : metrics.rules()) {
      assertThat(stats.denied() + stats.shadowDenied()).as(stats.ruleId()).isZero();
      assertThat(stats.topLimited()).as(stats.ruleId()).isEmpty();
    }
  }
}
