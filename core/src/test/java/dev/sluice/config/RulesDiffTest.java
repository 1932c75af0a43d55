package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Rule;
import java.util.List;
import org.junit.jupiter.api.Test;

class RulesDiffTest {
  private static final String LOGIN =
      "{ id: login, match: { path: /login }, key: ip, limit: 5, window: 1m }";

  private static List<Rule> rules(String... rules) {
    return ConfigTesting.parse("rules:\n  - " + String.join("\n  - ", rules) + "\n")
        .rules()
        .rules();
  }

  /** The diff from {@link #LOGIN} to {@code login}. */
  private static String changeOfLogin(String login) {
    return RulesDiff.between(rules(LOGIN), rules(login)).toString();
  }

  @Test
  void namesTheRulesAddedChangedAndRemoved() {
    List<Rule> before =
        rules(
            LOGIN,
            "{ id: old, match: { path: /old }, key: ip, limit: 1, window: 1s }",
            "{ id: api, match: { path: /api }, key: ip, limit: 9, window: 1h }");
    List<Rule> after =
        rules(
            "{ id: new, match: { path: /new }, key: ip, limit: 2, window: 30s, shadow: true }",
            "{ id: login, match: { path: /login }, key: ip, limit: 10, window: 1m }",
            "{ id: api, match: { path: /api }, key: ip, limit: 9, window: 1h }");
    assertThat(RulesDiff.between(before, after))
        .hasToString("added new (2/30s, shadow); changed login (limit 5->10); removed old");
  }

  @Test
  void aChangedWindowOrAlgorithmSaysTheCountsStartOver() {
    assertThat(
            changeOfLogin(
                "{ id: login, match: { path: /login }, key: ip, limit: 10, window: 30s }"))
        .isEqualTo("changed login (limit 5->10, window 1m->30s, counts start over)");
    assertThat(
            changeOfLogin(
                "{ id: login, match: { path: /login }, key: ip, limit: 5, window: 1m,"
                    + " algorithm: fixed_window }"))
        .isEqualTo("changed login (algorithm sliding_window->fixed_window, counts start over)");
  }

  @Test
  void namesEveryChangedFieldFromTo() {
    assertThat(
            changeOfLogin(
                "{ id: login, match: { path: [/login, /signin], methods: [POST] },"
                    + " key: [ip, user], limit: 5, window: 1m, tiers: { pro: 50 }, cost: 2,"
                    + " on_error: fail_closed }"))
        .isEqualTo(
            "changed login (path [/login]->[/login, /signin], methods all->[POST],"
                + " key ip->[ip, user], tiers {}->{pro=50}, cost 1->2,"
                + " on_error fail_open->fail_closed)");
  }

  @Test
  void aRuleSwitchingBetweenShadowAndEnforcingIsAModeChange() {
    String shadow =
        "{ id: login, match: { path: /login }, key: ip, limit: 5, window: 1m, shadow: true }";
    assertThat(changeOfLogin(shadow)).isEqualTo("changed login (mode enforcing->shadow)");
    assertThat(RulesDiff.between(rules(shadow), rules(LOGIN)))
        .hasToString("changed login (mode shadow->enforcing)");
  }

  @Test
  void aBurstIsNamedForATokenBucketOnly() {
    String bucket =
        "{ id: login, match: { path: /login }, key: ip, limit: 5, window: 1m,"
            + " algorithm: token_bucket, burst: %d }";
    assertThat(RulesDiff.between(rules(String.format(bucket, 5)), rules(String.format(bucket, 8))))
        .hasToString("changed login (burst 5->8)");
    assertThat(
            changeOfLogin("{ id: login, match: { path: /login }, key: ip, limit: 7, window: 1m }"))
        .as("a window's burst is its limit")
        .isEqualTo("changed login (limit 5->7)");
  }

  @Test
  void aDelayIsNamedAndItsQueueIsNotABurst() {
    String bucket =
        "{ id: login, match: { path: /login }, key: ip, limit: 5, window: 1m,"
            + " algorithm: token_bucket%s }";
    assertThat(
            RulesDiff.between(
                rules(String.format(bucket, "")),
                rules(String.format(bucket, ", delay: { max_wait: 2s }"))))
        .hasToString("changed login (delay none->{max_wait 2000ms, immediate 0, max_waiting 4})");
    assertThat(
            RulesDiff.between(
                rules(String.format(bucket, ", delay: { max_wait: 2s }")),
                rules(String.format(bucket, ", delay: { max_wait: 3s, immediate: 1 }"))))
        .hasToString(
            "changed login (delay {max_wait 2000ms, immediate 0, max_waiting 4}"
                + "->{max_wait 3000ms, immediate 1, max_waiting 4})");
  }

  @Test
  void aChangeOfConsistencyIsNamedAndKeepsTheCounts() {
    String rule = "{ id: api, match: { path: /api }, key: ip, limit: 5, window: 1m%s }";
    assertThat(
            RulesDiff.between(
                rules(String.format(rule, "")),
                rules(String.format(rule, ", consistency: local_first, sync: 250ms"))))
        .hasToString("changed api (consistency exact->local_first (sync 250 ms))");
  }

  @Test
  void sameRulesAreNoChange() {
    assertThat(RulesDiff.between(rules(LOGIN), rules(LOGIN)))
        .hasToString("no rule added, changed or removed");
  }

  @Test
  void listsRulesInBrief() {
    assertThat(
            RulesDiff.inBrief(
                rules(
                    LOGIN,
                    "{ id: api, match: { path: /api }, key: ip, limit: 9, window: 500ms,"
                        + " shadow: true }")))
        .isEqualTo("login (5/1m), api (9/500ms, shadow)");
  }
}
