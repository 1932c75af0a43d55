package dev.sluice.core;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import org.junit.jupiter.api.Test;

/**
 * What a decision reports: every rule that counted the request, and for the deciding rule a reset
 * that means one thing per algorithm and never comes before the retry-after of a 429.
 */
class DecisionTest {
  /** On a minute boundary, so windows of 10s and 1m start here. */
  private static final long START = 1_800_000_000L * SECOND;

  private final ManualClock clock = new ManualClock(START);
  private final Limiter limiter = new Limiter(new MemoryStore(clock, 10_000, 0));

  private void apply(String rules) throws InvalidConfigException {
    limiter.apply(
        ConfigParser.parse("test.yaml", "defaults: { key: ip }\nrules:\n" + rules).rules());
  }

  private static String rule(String id, String path, String rest) {
    return "  - { id: " + id + ", match: { path: \"" + path + "\" }, " + rest + " }\n";
  }

  private Decision get(String path) {
    return limiter.decide(TestRequest.get(path));
  }

  @Test
  void everyRuleThatCountedTheRequestIsListedWithItsOwnVerdict() throws Exception {
    apply(
        rule("wide", "/api/**", "limit: 10, window: 1m")
            + rule("elsewhere", "/other", "limit: 1, window: 1m")
            + rule("no-key", "/api/**", "key: api_key, limit: 1, window: 1m")
            + rule("narrow", "/api/**", "limit: 2, window: 1m")
            + rule("trial", "/api/**", "limit: 2, window: 1m, shadow: true"));
    Decision d = get("/api/x");
    assertThat(d.ruleId()).as("fewest left, enforcing before shadow").isEqualTo("narrow");
    assertThat(d.permit(0).verdict().remaining()).isEqualTo(9);
    assertThat(d.permit(1)).as("did not match").isNull();
    assertThat(d.permit(2)).as("matched, but the request has no API key").isNull();
    assertThat(d.permit(3).verdict().remaining()).isEqualTo(1);
    assertThat(d.permit(4).verdict().remaining()).isEqualTo(1);
    assertThat(d.rules().rules().get(3)).isSameAs(d.rule());
  }

  @Test
  void aShadowRuleDecidesAnAllowedRequestOnlyWithStrictlyFewerLeft() throws Exception {
    apply(
        rule("trial", "/api/**", "limit: 3, window: 1m, shadow: true")
            + rule("real", "/api/**", "limit: 3, window: 1m"));
    assertThat(get("/api/x").ruleId()).as("a tie").isEqualTo("real");
    apply(
        rule("trial", "/api/**", "limit: 2, window: 1m, shadow: true")
            + rule("real", "/api/**", "limit: 3, window: 1m"));
    assertThat(get("/api/y").ruleId()).isEqualTo("trial");
  }

  @Test
  void onlyTheRulesThatDeniedAreDeniedBy() throws Exception {
    apply(
        rule("loose", "/api/**", "limit: 5, window: 1m")
            + rule("tight", "/api/**", "limit: 1, window: 1m")
            + rule("trial", "/api/**", "limit: 1, window: 1m, shadow: true"));
    assertThat(get("/api/x").deniedBy(1)).as("allowed").isFalse();
    Decision denied = get("/api/x");
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.deniedBy(0)).isFalse();
    assertThat(denied.deniedBy(1)).isTrue();
    assertThat(denied.deniedBy(2)).as("a shadow never denies").isFalse();
  }

  @Test
  void onADenialARuleThatWouldHaveAllowedStillHasWhatItWouldHaveGiven() throws Exception {
    apply(
        rule("loose", "/api/**", "limit: 5, window: 1m, cost: 2")
            + rule("tight", "/api/**", "limit: 1, window: 1m"));
    assertThat(get("/api/x").remaining(0)).isEqualTo(3);
    Decision denied = get("/api/x");
    assertThat(denied.permit(0).verdict().remaining()).as("as if it had given 2").isEqualTo(1);
    assertThat(denied.remaining(0)).isEqualTo(3);
    assertThat(denied.remaining(1)).isZero();
  }

  /** A Redis store stops at a request's first denial: the rules after it are never decided. */
  @Test
  void aRuleTheStoreDidNotDecideIsLeftOut() throws Exception {
    apply(
        rule("first", "/r", "limit: 3, window: 1m") + rule("second", "/r", "limit: 3, window: 1m"));
    Rules rules = limiter.rules();
    Permit denying = permit(rules.rules().get(0));
    denying.verdict().set(false, 0, 7 * SECOND, 7 * SECOND);
    Decision denied = Decision.of(rules, new Permit[] {denying, permit(rules.rules().get(1))});
    assertThat(denied.ruleId()).isEqualTo("first");
    assertThat(denied.permit(1)).isNull();
    assertThat(denied.deniedBy(1)).isFalse();
  }

  private Permit permit(Rule rule) {
    MemoryStore store = new MemoryStore(clock, 10, 0);
    return new Permit(
        store.counters(rule.id(), rule.algorithm(), rule.quota().windowMicros()),
        "1.2.3.4",
        rule.quota(),
        1);
  }

  @Test
  void fixedWindowResetsWhenTheWindowEnds() throws Exception {
    apply(rule("fixed", "/f", "limit: 2, window: 10s, algorithm: fixed_window"));
    clock.advance(2_500_000);
    assertThat(get("/f").resetSeconds()).as("7.5s left of the window").isEqualTo(8);
    get("/f");
    Decision denied = get("/f");
    assertThat(denied.retryAfterSeconds()).isEqualTo(8);
    assertThat(denied.resetSeconds()).isEqualTo(8);
  }

  @Test
  void slidingWindowResetsWhenItsCountsHaveSlidOutOfTheEstimate() throws Exception {
    apply(rule("sliding", "/s", "limit: 2, window: 10s, algorithm: sliding_window"));
    clock.advance(2_500_000);
    assertThat(get("/s").resetSeconds())
        .as("this window's count weighs until the end of the next one: 7.5s + 10s")
        .isEqualTo(18);
    get("/s");
    Decision denied = get("/s");
    assertThat(denied.retryAfterSeconds()).isEqualTo(8);
    assertThat(denied.resetSeconds()).isEqualTo(18);
  }

  @Test
  void tokenBucketResetsWhenTheBucketIsFullAgain() throws Exception {
    apply(rule("bucket", "/b", "limit: 10, window: 10s, algorithm: token_bucket, burst: 4"));
    assertThat(get("/b").resetSeconds()).as("one token, earned back in 1s").isEqualTo(1);
    get("/b");
    get("/b");
    get("/b");
    Decision denied = get("/b");
    assertThat(denied.retryAfterSeconds()).isEqualTo(1);
    assertThat(denied.resetSeconds()).as("four tokens").isEqualTo(4);
  }

  /**
   * Under every algorithm, at many instants and costs, a 429's reset is never before its
   * retry-after: a client must never read that its quota is back before it may retry.
   */
  @Test
  void aRejectionsResetIsNeverBeforeItsRetryAfter() throws Exception {
    for (String algorithm : new String[] {"fixed_window", "sliding_window", "token_bucket"}) {
      for (int cost = 1; cost <= 3; cost++) {
        apply(rule("r", "/r", "limit: 3, window: 7s, cost: " + cost + ", algorithm: " + algorithm));
        int denials = 0;
        for (int step = 0; step < 200; step++) {
          clock.advance(173_777); // never aligned with a window or a token
          Decision d = get("/r");
          if (!d.allowed()) {
            denials++;
            assertThat(d.resetSeconds())
                .as("%s cost %d at step %d: %s", algorithm, cost, step, d)
                .isGreaterThanOrEqualTo(d.retryAfterSeconds());
          }
        }
        assertThat(denials).as(algorithm + " cost " + cost).isGreaterThan(50);
      }
    }
  }

  /** A Redis script or a fail_closed rule answers with times of its own. */
  @Test
  void aStoresResetBeforeItsRetryIsRaisedToTheRetry() throws Exception {
    apply(rule("redis", "/r", "limit: 3, window: 1m"));
    Rules rules = limiter.rules();
    Permit permit = permit(rules.rules().get(0));
    permit.verdict().set(false, 0, 0, 5 * SECOND);
    Decision denied = Decision.of(rules, new Permit[] {permit});
    assertThat(denied.retryAfterSeconds()).isEqualTo(5);
    assertThat(denied.resetSeconds()).isEqualTo(5);
  }
}
