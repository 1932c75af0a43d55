package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static dev.sluice.config.ConfigTesting.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.core.Rule;
import dev.sluice.store.OnError;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.Node;

/** Defaults and a rule's own values: which wins, and where a merged value's problem points. */
class RuleValuesTest {
  private static final String DEFAULTS_AND_RULES =
      """
      defaults:
        key: [ip, user]
        limit: 10
        window: 1m
        algorithm: token_bucket
        burst: 20
        cost: 2
        on_error: fail_closed
        shadow: true
        tiers: { gold: 100 }
      rules:
        - id: inherits
          match: { path: /a }
        - id: overrides
          match: { path: /b }
          key: api_key
          limit: 50
          window: 1s
          algorithm: fixed_window
          cost: 1
          on_error: fail_open
          shadow: false
          tiers: { free: 5 }
      """;

  @Test
  void ruleThatOmitsAFieldTakesItFromDefaults() {
    Rule rule = rule(parse(DEFAULTS_AND_RULES), "inherits");
    assertThat(rule.key()).hasToString("ip, user");
    assertThat(rule.quota().limit()).isEqualTo(10);
    assertThat(rule.quota().windowMicros()).isEqualTo(60_000_000L);
    assertThat(rule.algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(rule.quota().burst()).isEqualTo(20);
    assertThat(rule.cost()).isEqualTo(2);
    assertThat(rule.onError()).isEqualTo(OnError.FAIL_CLOSED);
    assertThat(rule.shadow()).isTrue();
    assertThat(rule.tierQuotas()).containsOnlyKeys("gold");
  }

  @Test
  void rulesOwnValueWins() {
    Rule rule = rule(parse(DEFAULTS_AND_RULES), "overrides");
    assertThat(rule.key()).hasToString("api_key");
    assertThat(rule.quota().limit()).isEqualTo(50);
    assertThat(rule.quota().windowMicros()).isEqualTo(1_000_000L);
    assertThat(rule.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(rule.quota().burst())
        .as("a burst from defaults is unused off the bucket")
        .isEqualTo(50);
    assertThat(rule.cost()).isEqualTo(1);
    assertThat(rule.onError()).isEqualTo(OnError.FAIL_OPEN);
    assertThat(rule.shadow()).isFalse();
    assertThat(rule.tierQuotas()).containsOnlyKeys("free");
  }

  @Test
  void defaultsMakeMissingFieldsGiven() {
    String yaml =
        """
        defaults: { key: ip, window: 1m }
        rules:
          - id: a
            match: { path: /a }
            limit: 3
        """;
    assertThat(rule(parse(yaml), "a").quota().limit()).isEqualTo(3);
    assertThat(places(yaml.replace("    limit: 3\n", ""))).containsExactly("3 rules[0] (a).limit");
  }

  @Test
  void problemWithAnInheritedValuePointsAtTheDefaults() {
    ConfigError error =
        onlyError(
            """
            defaults:
              key: ip
              window: 1m
              cost: 10
            rules:
              - id: a
                match: { path: /a }
                limit: 5
            """);
    assertThat(error.line()).isEqualTo(4);
    assertThat(error.field()).isEqualTo("defaults.cost");
  }

  @Test
  void problemWithARulesOwnValuePointsAtTheRule() {
    ConfigError error =
        onlyError(
            """
            defaults:
              key: ip
              window: 1m
              cost: 1
            rules:
              - id: a
                match: { path: /a }
                limit: 5
                cost: 6
            """);
    assertThat(error.line()).isEqualTo(9);
    assertThat(error.field()).isEqualTo("rules[0] (a).cost");
  }

  @Test
  void burstInDefaultsIsNoErrorForRulesOffTheBucket() {
    Rule rule =
        rule(
            parse(
                """
                defaults: { key: ip, window: 1m, burst: 30 }
                rules:
                  - { id: a, match: { path: /a }, limit: 5 }
                """),
            "a");
    assertThat(rule.algorithm()).isEqualTo(Algorithm.SLIDING_WINDOW);
    assertThat(rule.quota().burst()).isEqualTo(5);
  }

  @Test
  void badValuesInDefaultsAreReportedOnceAtTheDefaults() {
    assertThat(
            places(
                """
                defaults:
                  limit: zero
                  window: 5x
                  key: bogus
                rules:
                  - { id: a, match: { path: /a } }
                  - { id: b, match: { path: /b } }
                """))
        .containsExactly("2 defaults.limit", "3 defaults.window", "4 defaults.key");
  }

  @Test
  void defaultsMustBeAMapping() {
    assertThat(places("defaults: [ip]\nrules: []\n")).containsExactly("1 defaults");
  }

  @Test
  void whereAndPathOfFollowTheMerge() {
    Problems problems = new Problems("f");
    RuleValues defaults =
        RuleValues.read(new Fields(node("limit: 5\nwindow: 1m\n"), "defaults", problems), problems);
    Node ruleNode = node("x: 0\ncost: 2\nlimit: 7\n");
    RuleValues rule =
        RuleValues.read(new Fields(ruleNode, "rules[0]", problems), problems).over(defaults);

    assertThat(rule.limit).isEqualTo(7);
    assertThat(rule.windowMicros).isEqualTo(60_000_000L);
    assertThat(rule.cost).isEqualTo(2);
    assertThat(rule.key).isNull();
    assertThat(rule.pathOf("limit")).isEqualTo("rules[0].limit");
    assertThat(rule.where("limit").getStartMark().getLine()).isEqualTo(2);
    assertThat(rule.pathOf("window")).isEqualTo("defaults.window");
    assertThat(rule.where("window").getStartMark().getLine()).isEqualTo(1);
    assertThat(rule.pathOf("key")).isEqualTo("rules[0].key");
    assertThat(rule.where("key")).isSameAs(ruleNode);
    assertThat(rule.given("window")).isTrue();
    assertThat(rule.given("key")).isFalse();
    assertThat(problems.isEmpty()).isTrue();
  }

  private static Node node(String yaml) {
    return new Yaml().compose(new StringReader(yaml));
  }
}
