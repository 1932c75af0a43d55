package dev.sluice.core;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import org.junit.jupiter.api.Test;

class LimiterTest {
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final Limiter limiter = new Limiter(new MemoryStore(clock, 10_000, 0));

  private Limiter with(String yaml) throws InvalidConfigException {
    limiter.apply(ConfigParser.parse("test.yaml", yaml).rules());
    return limiter;
  }

  private static String rule(String id, String path, String rest) {
    return "  - { id: " + id + ", match: { path: \"" + path + "\" }, " + rest + " }\n";
  }

  private int admitted(RequestView request, int attempts) {
    int allowed = 0;
    for (int i = 0; i < attempts; i++) {
      allowed += limiter.decide(request).allowed() ? 1 : 0;
    }
    return allowed;
  }

  @Test
  void withoutRulesEverythingIsUnlimited() {
    assertThat(limiter.decide(TestRequest.get("/x"))).isSameAs(Decision.UNLIMITED);
  }

  @Test
  void deniesOverTheLimitWithWholeSecondsToWait() throws Exception {
    with(
        "rules:\n"
            + rule(
                "api", "/api/**", "key: ip, limit: 2, window: 1m, " + "algorithm: fixed_window"));
    clock.advance(15 * SECOND + 1);
    Decision first = limiter.decide(TestRequest.get("/api/a"));
    assertThat(first.allowed()).isTrue();
    assertThat(first.ruleId()).isEqualTo("api");
    assertThat(first.limit()).isEqualTo(2);
    assertThat(first.remaining()).isEqualTo(1);
    limiter.decide(TestRequest.get("/api/b"));
    Decision denied = limiter.decide(TestRequest.get("/api"));
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.remaining()).isZero();
    // 44.999999 s to the end of the aligned minute, rounded up.
    assertThat(denied.retryAfterSeconds()).isEqualTo(45);
    assertThat(denied.resetSeconds()).isEqualTo(45);
  }

  @Test
  void excludedPathsAndOtherMethodsAreNotLimited() throws Exception {
    with(
        "exclude: [/health]\nrules:\n"
            + rule("all", "/**", "key: global, limit: 1, window: 1m")
            + "  - { id: login, match: { path: /login, methods: [post] }, key: ip, limit: 1, "
            + "window: 1m }\n");
    assertThat(admitted(TestRequest.get("/health"), 5)).isEqualTo(5);
    assertThat(limiter.decide(TestRequest.get("/health")).ruleId()).isNull();
    assertThat(admitted(TestRequest.get("/login").from("10.0.0.9"), 3)).isEqualTo(1);
  }

  @Test
  void aGetRuleLimitsHeadToo() throws Exception {
    with(
        "rules:\n  - { id: get, match: { path: /a, methods: [GET] }, key: ip, limit: 2, "
            + "window: 1m }\n");
    limiter.decide(TestRequest.get("/a"));
    limiter.decide(TestRequest.get("/a"));
    assertThat(limiter.decide(new TestRequest("HEAD", "/a")).allowed()).isFalse();
  }

  /** A browser's CORS preflight: OPTIONS with Origin and Access-Control-Request-Method. */
  private static TestRequest preflight(String path) {
    return new TestRequest("OPTIONS", path)
        .header("Origin", "https://app.example.com")
        .header("Access-Control-Request-Method", "POST");
  }

  @Test
  void corsPreflightsAreNotCountedByDefault() throws Exception {
    with("rules:\n" + rule("all", "/api/**", "key: ip, limit: 1, window: 1m"));
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.decide(preflight("/api/x"))).isSameAs(Decision.UNLIMITED);
    }
    assertThat(limiter.decide(TestRequest.post("/api/x")).allowed()).as("the permit").isTrue();
    assertThat(
            admitted(new TestRequest("OPTIONS", "/api/x").header("Origin", "https://a.example"), 1))
        .as("an OPTIONS without Access-Control-Request-Method is no preflight")
        .isZero();
  }

  @Test
  void corsPreflightsAreCountedWhenConfigured() throws Exception {
    with(
        "cors: { count_preflights: true }\nrules:\n"
            + rule("all", "/api/**", "key: ip, limit: 2, window: 1m"));
    assertThat(admitted(preflight("/api/x"), 3)).isEqualTo(2);
  }

  @Test
  void aRuleWhoseKeyIsMissingDoesNotApply() throws Exception {
    with("rules:\n" + rule("keys", "/api/**", "key: api_key, limit: 1, window: 1m"));
    assertThat(admitted(TestRequest.get("/api/x"), 3)).isEqualTo(3);
    assertThat(admitted(TestRequest.get("/api/x").header("X-API-Key", "k1"), 3)).isEqualTo(1);
  }

  @Test
  void aDeniedRequestConsumesNothingFromItsOtherRules() throws Exception {
    with(
        "rules:\n"
            + rule("per-ip", "/api/**", "key: ip, limit: 10, window: 1m")
            + rule(
                "global",
                "/api/**",
                "key: global, limit: 3, window: 1m, " + "algorithm: token_bucket"));
    assertThat(admitted(TestRequest.get("/api/x").from("10.0.0.1"), 5)).isEqualTo(3);
    Decision denied = limiter.decide(TestRequest.get("/api/x").from("10.0.0.1"));
    assertThat(denied.ruleId()).isEqualTo("global");
    clock.advance(60 * SECOND);
    Decision next = limiter.decide(TestRequest.get("/api/x").from("10.0.0.1"));
    assertThat(next.allowed()).isTrue();
    assertThat(next.ruleId()).as("3 of 10 per-IP permits were ever taken").isEqualTo("global");
  }

  @Test
  void reportsTheMostRestrictiveRule() throws Exception {
    with(
        "rules:\n"
            + rule("loose", "/api/**", "key: ip, limit: 100, window: 1m")
            + rule("tight", "/api/**", "key: ip, limit: 5, window: 1m"));
    Decision d = limiter.decide(TestRequest.get("/api/x"));
    assertThat(d.ruleId()).isEqualTo("tight");
    assertThat(d.remaining()).isEqualTo(4);
  }

  @Test
  void shadowRulesCountAndReportButNeverDeny() throws Exception {
    with("rules:\n" + rule("trial", "/api/**", "key: ip, limit: 2, window: 1m, shadow: true"));
    assertThat(admitted(TestRequest.get("/api/x"), 5)).isEqualTo(5);
    Decision d = limiter.decide(TestRequest.get("/api/x"));
    assertThat(d.ruleId()).isEqualTo("trial");
    assertThat(d.remaining()).isZero();
  }

  /** A shadow rule counts as if it were alone: every request it matches, denied or not. */
  @Test
  void shadowRulesCountEveryRequestWhateverTheEnforcingRulesDecide() throws Exception {
    with(
        "rules:\n"
            + rule("api", "/api/**", "key: ip, limit: 2, window: 1m")
            + rule("trial", "/api/**", "key: ip, limit: 10, window: 1m, shadow: true")
            + rule("trial-all", "/api/**", "key: global, limit: 3, window: 1m, shadow: true"));
    assertThat(admitted(TestRequest.get("/api/x"), 4)).isEqualTo(2);
    Decision fifth = limiter.decide(TestRequest.get("/api/x"));
    assertThat(fifth.allowed()).isFalse();
    assertThat(fifth.ruleId()).isEqualTo("api");
    assertThat(fifth.permit(1).verdict().remaining()).as("5 of 10 taken").isEqualTo(5);
    assertThat(fifth.permit(2).verdict().allowed()).as("3 of 3 taken").isFalse();
    assertThat(limiter.decide(TestRequest.get("/api/x").from("10.9.9.9")).allowed())
        .as("another client: its own per-IP count; the global trial's denial denies nothing")
        .isTrue();
  }

  @Test
  void tiersRaiseTheLimitForKnownKeysAndTrustedHeadersOnly() throws Exception {
    with(
        "client_ip: { trusted_proxies: [10.0.0.0/8] }\n"
            + "tiers: { header: X-Plan, api_keys: { pro: [gold-key] } }\nrules:\n"
            + rule("api", "/api/**", "key: api_key, limit: 1, window: 1m, tiers: { pro: 3 }"));
    assertThat(admitted(TestRequest.get("/api").header("X-API-Key", "gold-key"), 5)).isEqualTo(3);
    assertThat(
            admitted(
                TestRequest.get("/api")
                    .header("X-API-Key", "k2")
                    .header("X-Plan", "pro")
                    .from("203.0.113.5"),
                5))
        .as("a client naming its tier")
        .isEqualTo(1);
    assertThat(
            admitted(
                TestRequest.get("/api")
                    .header("X-API-Key", "k3")
                    .header("X-Plan", "pro")
                    .from("10.1.1.1"),
                5))
        .as("a proxy naming it")
        .isEqualTo(3);
  }

  @Test
  void costTakesSeveralPermits() throws Exception {
    with("rules:\n" + rule("export", "/export", "key: ip, limit: 10, window: 1m, cost: 4"));
    assertThat(admitted(TestRequest.get("/export"), 5)).isEqualTo(2);
  }

  @Test
  void spellingsOfAPathCountAgainstOneRule() throws Exception {
    with("rules:\n" + rule("login", "/login", "key: ip, limit: 4, window: 1m"));
    for (String path : new String[] {"/api/..;/login", "//login", "/login;x=1", "/%6cogin"}) {
      assertThat(limiter.decide(TestRequest.get(path)).allowed()).as(path).isTrue();
    }
    assertThat(limiter.decide(TestRequest.get("/login")).allowed()).isFalse();
  }

  @Test
  void aClientThatWaitsRetryAfterIsAllowedUnderEveryAlgorithm() throws Exception {
    for (String algorithm : new String[] {"fixed_window", "sliding_window", "token_bucket"}) {
      with(
          "rules:\n"
              + rule(
                  algorithm,
                  "/" + algorithm,
                  "key: ip, limit: 3, window: 10s, " + "algorithm: " + algorithm));
      clock.advance(1_234_567);
      RequestView request = TestRequest.get("/" + algorithm);
      admitted(request, 3);
      Decision denied = limiter.decide(request);
      assertThat(denied.allowed()).isFalse();
      clock.advance(denied.retryAfterSeconds() * SECOND);
      assertThat(limiter.decide(request).allowed()).as(algorithm).isTrue();
    }
  }

  @Test
  void reloadingKeepsTheCountsOfUnchangedRules() throws Exception {
    String kept = rule("kept", "/a", "key: ip, limit: 2, window: 1m");
    with("rules:\n" + kept + rule("changed", "/b", "key: ip, limit: 2, window: 1m"));
    admitted(TestRequest.get("/a"), 2);
    admitted(TestRequest.get("/b"), 2);
    with(
        "rules:\n"
            + kept.replace("limit: 2", "limit: 3")
            + rule("changed", "/b", "key: ip, limit: 2, window: 2m"));
    assertThat(admitted(TestRequest.get("/a"), 5))
        .as("a raised limit keeps the count")
        .isEqualTo(1);
    assertThat(admitted(TestRequest.get("/b"), 5)).as("a new window starts anew").isEqualTo(2);
  }

  @Test
  void aRuleDroppedForOneReloadComesBackWithItsCounts() throws Exception {
    String a = rule("a", "/a", "key: ip, limit: 2, window: 1m");
    String b = rule("b", "/b", "key: ip, limit: 2, window: 1m");
    with("rules:\n" + a + b);
    admitted(TestRequest.get("/b"), 2);
    with("rules:\n" + a); // a file caught half-written
    assertThat(admitted(TestRequest.get("/b"), 3)).as("not limited meanwhile").isEqualTo(3);
    with("rules:\n" + a + b);
    assertThat(admitted(TestRequest.get("/b"), 3)).isZero();
    with("rules:\n" + a);
    with("rules:\n" + a);
    with("rules:\n" + a + b);
    assertThat(admitted(TestRequest.get("/b"), 3))
        .as("gone for two reloads: forgotten")
        .isEqualTo(2);
  }
}
