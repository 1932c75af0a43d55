package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.errors;
import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CoreAccess;
import dev.sluice.core.Rule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rule by rule: each problem of a rule is reported at its own line and field. */
class RuleReaderTest {

  /** One rule, valid as it stands; {@code extra} lines (indented 4) replace or add fields. */
  private static String rule(String... extra) {
    StringBuilder yaml = new StringBuilder("rules:\n  - id: a\n"); // lines 1-2
    yaml.append("    match: { path: /a }\n"); // line 3
    yaml.append("    key: ip\n"); // line 4
    for (String line : extra) {
      yaml.append("    ").append(line).append('\n'); // line 5 on
    }
    return yaml.toString();
  }

  @Test
  void validRuleParses() {
    Rule rule = parse(rule("limit: 5", "window: 1m")).rules().rules().get(0);
    assertThat(rule.id()).isEqualTo("a");
    assertThat(rule.quota().limit()).isEqualTo(5);
  }

  @Test
  void unknownFieldInARuleIsReportedAtItsName() {
    ConfigError error = onlyError(rule("limit: 5", "window: 1m", "limt: 6"));
    assertThat(error.line()).isEqualTo(7);
    assertThat(error.column()).isEqualTo(5);
    assertThat(error.field()).isEqualTo("rules[0] (a).limt");
    assertThat(error.message())
        .startsWith("unknown field, did you mean limit? (known here: id, match, key, limit,");
  }

  @Test
  void unknownFieldInMatchIsReportedWithItsPath() {
    assertThat(
            places(
                """
                rules:
                  - id: a
                    match:
                      path: /a
                      method: GET
                    key: ip
                    limit: 5
                    window: 1m
                """))
        .containsExactly("5 rules[0] (a).match.method");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"5\"",
        "'5'",
        "abc",
        "5.5",
        "0",
        "-1",
        "1e3",
        "0x10",
        "1000000001",
        "[5]",
        "{n: 5}",
        "true"
      })
  void limitMustBeAPositiveWholeNumber(String limit) {
    ConfigError error = onlyError(rule("limit: " + limit, "window: 1m"));
    assertThat(error.line()).isEqualTo(5);
    assertThat(error.column()).isEqualTo(12);
    assertThat(error.field()).isEqualTo("rules[0] (a).limit");
    assertThat(error.message()).startsWith("must be a whole number from 1 to 1000000000");
  }

  @Test
  void limitMessageQuotesTheValue() {
    assertThat(onlyError(rule("limit: 0", "window: 1m")))
        .hasToString(
            "ratelimit.yaml:5:12: rules[0] (a).limit: must be a whole number from 1 to 1000000000,"
                + " got \"0\"");
  }

  @Test
  void aQuotedNumberIsToldToLoseItsQuotes() {
    assertThat(onlyError(rule("limit: \"5\"", "window: 1m")))
        .hasToString(
            "ratelimit.yaml:5:12: rules[0] (a).limit: must be a whole number from 1 to 1000000000,"
                + " got \"5\": remove the quotes, which make it text");
    assertThat(onlyError(rule("limit: '0'", "window: 1m")).message())
        .as("still wrong without them")
        .isEqualTo("must be a whole number from 1 to 1000000000, got \"0\"");
  }

  @Test
  void limitMayUseUnderscoresAndAPlus() {
    assertThat(parse(rule("limit: 1_000", "window: 1m")).rules().rules().get(0).quota().limit())
        .isEqualTo(1000);
    assertThat(parse(rule("limit: +7", "window: 1m")).rules().rules().get(0).quota().limit())
        .isEqualTo(7);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "5x",
        "0s",
        "1y",
        "500us",
        "-1m",
        "60",
        "1.5s",
        "1M",
        "366d",
        "",
        "1 m",
        "213503983d",
        "999999999d"
      })
  void windowMustBeADuration(String window) {
    ConfigError error = onlyError(rule("limit: 5", "window: '" + window + "'"));
    assertThat(error.line()).isEqualTo(6);
    assertThat(error.field()).isEqualTo("rules[0] (a).window");
    assertThat(error.message())
        .isEqualTo(
            "must be a duration from 1ms to 365d such as 500ms, 1s, 1m, 1h or 1d, got \""
                + window
                + "\"");
  }

  @Test
  void windowMustBeASingleValue() {
    assertThat(places(rule("limit: 5", "window: [1m]"))).containsExactly("6 rules[0] (a).window");
  }

  @Test
  void shadowMustBeABoolean() {
    ConfigError error = onlyError(rule("limit: 5", "window: 1m", "shadow: maybe"));
    assertThat(error.line()).isEqualTo(7);
    assertThat(error.field()).isEqualTo("rules[0] (a).shadow");
    assertThat(error.message()).isEqualTo("must be true or false");
    ConfigError quoted = onlyError(rule("limit: 5", "window: 1m", "shadow: 'true'"));
    assertThat(quoted.field()).isEqualTo("rules[0] (a).shadow");
    assertThat(quoted.message())
        .isEqualTo("must be true or false: remove the quotes, which make it text");
  }

  @Test
  void shadowAcceptsYamlBooleans() {
    assertThat(parse(rule("limit: 5", "window: 1m", "shadow: yes")).rules().rules().get(0).shadow())
        .isTrue();
    assertThat(parse(rule("limit: 5", "window: 1m", "shadow: Off")).rules().rules().get(0).shadow())
        .isFalse();
  }

  @Test
  void algorithmAndOnErrorMustBeKnownChoices() {
    assertThat(
            errors(rule("limit: 5", "window: 1m", "algorithm: leaky_bucket", "on_error: explode")))
        .extracting(ConfigError::toString)
        .containsExactly(
            "ratelimit.yaml:7:16: rules[0] (a).algorithm: must be one of fixed_window,"
                + " sliding_window, token_bucket, got \"leaky_bucket\"",
            "ratelimit.yaml:8:15: rules[0] (a).on_error: must be one of fail_open, fail_closed, got"
                + " \"explode\"");
  }

  @Test
  void methodsMayBeASingleValue() {
    Rule rule =
        parse(rule("limit: 5", "window: 1m").replace("{ path: /a }", "{ path: /a, methods: post }"))
            .rules()
            .rules()
            .get(0);
    assertThat(CoreAccess.matches(rule, "POST", "/a")).isTrue();
    assertThat(CoreAccess.matches(rule, "GET", "/a")).isFalse();
  }

  @Test
  void badMethodsAreReportedItemByItem() {
    assertThat(
            places(
                """
                rules:
                  - id: a
                    match:
                      path: /a
                      methods:
                        - GET
                        - "GET POST"
                        - [PUT]
                    key: ip
                    limit: 5
                    window: 1m
                """))
        .containsExactly("7 rules[0] (a).match.methods[1]", "8 rules[0] (a).match.methods[2]");
  }

  @Test
  void aMisspeltMethodIsAnErrorThatNamesTheNearest() {
    assertThat(
            onlyError(
                rule("limit: 5", "window: 1m")
                    .replace("{ path: /a }", "{ path: /a, methods: [GET, PSOT] }")))
        .hasToString(
            "ratelimit.yaml:3:39: rules[0] (a).match.methods[1]: \"PSOT\" is not an HTTP method,"
                + " did you mean POST? (known: GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS,"
                + " TRACE, PATCH)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"PROPFIND", "FETCH", "G3T"})
  void onlyKnownMethodsAreAccepted(String method) {
    assertThat(
            onlyError(
                    rule("limit: 5", "window: 1m")
                        .replace("{ path: /a }", "{ path: /a, methods: " + method + " }"))
                .message())
        .startsWith("\"" + method + "\" is not an HTTP method");
  }

  @Test
  void methodsAreKnownInAnyCase() {
    Rule rule =
        parse(
                rule("limit: 5", "window: 1m")
                    .replace("{ path: /a }", "{ path: /a, methods: [patch, Delete] }"))
            .rules()
            .rules()
            .get(0);
    assertThat(CoreAccess.matches(rule, "PATCH", "/a")).isTrue();
    assertThat(CoreAccess.matches(rule, "DELETE", "/a")).isTrue();
    assertThat(CoreAccess.matches(rule, "GET", "/a")).isFalse();
  }

  @Test
  void anEmptyMethodListIsAnError() {
    ConfigError error =
        onlyError(
            rule("limit: 5", "window: 1m").replace("{ path: /a }", "{ path: /a, methods: [] }"));
    assertThat(error.field()).isEqualTo("rules[0] (a).match.methods");
    assertThat(error.message())
        .isEqualTo(
            "an empty list is no method at all; list the methods, or remove methods to match every"
                + " method");
  }

  @Test
  void pathGivenAsAMappingIsAWrongType() {
    ConfigError error =
        onlyError(
            """
            rules:
              - id: a
                match:
                  path: { prefix: /a }
                key: ip
                limit: 5
                window: 1m
            """);
    assertThat(error.line()).isEqualTo(4);
    assertThat(error.field()).isEqualTo("rules[0] (a).match.path");
    assertThat(error.message()).isEqualTo("must be a single value or a list of values");
  }

  @Test
  void badPathPatternsAreReportedItemByItem() {
    assertThat(
            places(
                rule("limit: 5", "window: 1m").replace("{ path: /a }", "{ path: [/a, a, /a*] }")))
        .containsExactly("3 rules[0] (a).match.path[1]", "3 rules[0] (a).match.path[2]");
  }

  @Test
  void matchNeedsAPath() {
    assertThat(places(rule("limit: 5", "window: 1m").replace("{ path: /a }", "{ methods: GET }")))
        .containsExactly("3 rules[0] (a).match.path");
    assertThat(
            onlyError(rule("limit: 5", "window: 1m").replace("{ path: /a }", "{ path: [] }"))
                .message())
        .isEqualTo("an empty list matches nothing; give at least one path pattern");
  }

  @Test
  void matchMustBeAMapping() {
    ConfigError error = onlyError(rule("limit: 5", "window: 1m").replace("{ path: /a }", "/a"));
    assertThat(error.line()).isEqualTo(3);
    assertThat(error.field()).isEqualTo("rules[0] (a).match");
    assertThat(error.message()).isEqualTo("must be a mapping of fields");
  }

  @Test
  void ruleThatIsNoMappingIsOneError() {
    assertThat(places("rules:\n  - login\n  - [a]\n")).containsExactly("2 rules[0]", "3 rules[1]");
  }

  @Test
  void missingFieldsAreReportedAtTheRule() {
    assertThat(
            places(
                """
                rules:
                  - limit: 5
                    burst: 1
                """))
        .containsExactly(
            "2 rules[0].id",
            "2 rules[0].match",
            "2 rules[0].window",
            "2 rules[0].key",
            "3 rules[0].burst");
    assertThat(errors("rules:\n  - id: a\n    match: { path: /a }\n"))
        .extracting(ConfigError::toString)
        .containsExactly(
            "ratelimit.yaml:2:5: rules[0] (a).limit: missing: give it in the rule or in defaults",
            "ratelimit.yaml:2:5: rules[0] (a).window: missing: give it in the rule or in defaults",
            "ratelimit.yaml:2:5: rules[0] (a).key: missing: give it in the rule or in defaults");
  }

  @Test
  void aRejectedValueIsNotAlsoReportedMissing() {
    assertThat(places(rule("limit: abc", "window: 5x").replace("key: ip", "key: bogus")))
        .containsExactly("4 rules[0] (a).key", "5 rules[0] (a).limit", "6 rules[0] (a).window");
    assertThat(places(rule("id: [a]", "limit: 5", "window: 1m").replace("  - id: a\n", "  -\n")))
        .containsExactly("5 rules[0].id");
  }

  @Test
  void badKeysAreReportedAtTheKey() {
    assertThat(onlyError(rule("limit: 5", "window: 1m").replace("key: ip", "key: 'header:'")))
        .hasToString(
            "ratelimit.yaml:4:10: rules[0] (a).key: 'header:': header:NAME needs a header name");
    assertThat(
            onlyError(rule("limit: 5", "window: 1m").replace("key: ip", "key: [ip, user, ip]"))
                .message())
        .isEqualTo("'ip' appears twice in the key");
    assertThat(
            onlyError(rule("limit: 5", "window: 1m").replace("key: ip", "key: [global, ip]"))
                .message())
        .isEqualTo("'global' cannot be part of a composite key");
  }

  @Test
  void aProblemNamesItsRuleByIdAsWellAsPosition() {
    assertThat(
            onlyError(
                """
                rules:
                  - { id: login, match: { path: /login }, key: ip, limit: 5, window: 1m }
                  - { id: api-per-ip, match: { path: /api/** }, key: ip, limit: 0, window: 1m }
                """))
        .hasToString(
            "ratelimit.yaml:3:65: rules[1] (api-per-ip).limit: must be a whole number from 1 to"
                + " 1000000000, got \"0\"");
  }

  @Test
  void duplicateIdIsReportedAtTheSecond() {
    ConfigError error =
        onlyError(
            """
            rules:
              - { id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }
              - { id: b, match: { path: /b }, key: ip, limit: 5, window: 1m }
              - { id: a, match: { path: /c }, key: ip, limit: 5, window: 1m }
            """);
    assertThat(error.line()).isEqualTo(4);
    assertThat(error.field()).isEqualTo("rules[2] (a).id");
    assertThat(error.message()).isEqualTo("\"a\" is the id of an earlier rule");
  }

  @ParameterizedTest
  @ValueSource(strings = {"'a b'", "'a:b'", "'{a}'", "''", "'é'"})
  void idsAreRestrictedToSafeCharacters(String id) {
    ConfigError error = onlyError(rule("limit: 5", "window: 1m").replace("id: a", "id: " + id));
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.field()).isEqualTo("rules[0].id");
    assertThat(error.message()).startsWith("must be 1 to 64 of A-Z a-z 0-9 _ . -");
  }

  @Test
  void burstAppliesToTheTokenBucketOnly() {
    ConfigError error =
        onlyError(rule("limit: 5", "window: 1m", "algorithm: fixed_window", "burst: 10"));
    assertThat(error.line()).isEqualTo(8);
    assertThat(error.field()).isEqualTo("rules[0] (a).burst");
    assertThat(error.message()).isEqualTo("applies to algorithm token_bucket only");
    assertThat(places(rule("limit: 5", "window: 1m", "burst: 10")))
        .containsExactly("7 rules[0] (a).burst");
  }

  @Test
  void costMustFitTheLimit() {
    ConfigError error = onlyError(rule("limit: 5", "window: 1m", "cost: 6"));
    assertThat(error.line()).isEqualTo(7);
    assertThat(error.field()).isEqualTo("rules[0] (a).cost");
    assertThat(error.message())
        .isEqualTo(
            "a request costing 6 could never pass limit of 5; lower the cost or raise the limit");
    assertThat(parse(rule("limit: 5", "window: 1m", "cost: 5")).rules().rules().get(0).cost())
        .isEqualTo(5);
  }

  @Test
  void costMustFitTheBurst() {
    ConfigError error =
        onlyError(
            rule("limit: 100", "window: 1m", "algorithm: token_bucket", "burst: 3", "cost: 4"));
    assertThat(error.line()).isEqualTo(9);
    assertThat(error.field()).isEqualTo("rules[0] (a).cost");
    assertThat(error.message())
        .isEqualTo(
            "a request costing 4 could never pass burst of 3; lower the cost or raise the burst");
  }

  @Test
  void costMustFitEveryTier() {
    ConfigError error =
        onlyError(rule("limit: 100", "window: 1m", "cost: 10", "tiers: { gold: 1000, free: 5 }"));
    assertThat(error.line()).isEqualTo(7);
    assertThat(error.field()).isEqualTo("rules[0] (a).cost");
    assertThat(error.message()).contains("could never pass tier free's limit of 5");
  }

  @Test
  void tierLimitsArePositiveWholeNumbers() {
    assertThat(
            places(
                """
                rules:
                  - id: a
                    match: { path: /a }
                    key: ip
                    limit: 5
                    window: 1m
                    tiers:
                      gold: 0
                      silver: abc
                      bronze: "5"
                      free: 2
                """))
        .containsExactly(
            "8 rules[0] (a).tiers.gold",
            "9 rules[0] (a).tiers.silver",
            "10 rules[0] (a).tiers.bronze");
    assertThat(places(rule("limit: 5", "window: 1m", "tiers: [gold]")))
        .containsExactly("7 rules[0] (a).tiers");
  }

  @Test
  void tierQuotasShareTheRulesWindow() {
    Rule rule = parse(rule("limit: 5", "window: 1h", "tiers: { gold: 50 }")).rules().rules().get(0);
    assertThat(rule.tierQuotas().get("gold").limit()).isEqualTo(50);
    assertThat(rule.tierQuotas().get("gold").windowMicros()).isEqualTo(3_600_000_000L);
    assertThat(rule.tierQuotas().get("gold").burst()).isEqualTo(50);
  }

  @Test
  void anExplicitBurstScalesWithEachTiersLimit() {
    Rule rule =
        parse(
                rule(
                    "limit: 10",
                    "window: 1m",
                    "algorithm: token_bucket",
                    "burst: 3",
                    "tiers: { pro: 100, trial: 1 }"))
            .rules()
            .rules()
            .get(0);
    assertThat(rule.quota().burst()).isEqualTo(3);
    assertThat(rule.tierQuotas().get("pro").burst()).isEqualTo(30);
    assertThat(rule.tierQuotas().get("trial").burst()).as("rounded up").isEqualTo(1);
  }

  @Test
  void problemsInSeveralRulesAreAllReported() {
    assertThat(
            places(
                """
                rules:
                  - { id: a, match: { path: /a }, key: ip, limit: 0, window: 1m }
                  - { id: b, match: { path: /b }, key: ip, limit: 5, window: 1m }
                  - { id: c, match: { path: c }, key: ip, limit: 5, window: 1m }
                """))
        .containsExactly("2 rules[0] (a).limit", "4 rules[2] (c).match.path");
  }
}
