package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static dev.sluice.config.ConfigTesting.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Responses;
import dev.sluice.core.RuleResponse;
import org.junit.jupiter.api.Test;

class ResponseReaderTest {
  private static final String RULE =
      "  - { id: api, match: { path: /api }, key: ip, limit: 1, window: 1m";

  @Test
  void withoutTheSectionResponsesAreTheXRateLimitHeadersAndJson() {
    Responses responses = parse("rules: []\n").rules().responses();
    assertThat(responses.headers()).isEqualTo(Responses.Headers.X_RATELIMIT);
    assertThat(responses.reset()).isEqualTo(Responses.Reset.SECONDS);
    assertThat(responses.body()).isEqualTo(Responses.Body.JSON);
    assertThat(responses.hideRuleIds()).isFalse();
  }

  @Test
  void everySettingIsRead() {
    Responses ietf =
        parse(
                """
                response: { headers: ietf, body: problem_json, hide_rule_ids: true }
                rules: []
                """)
            .rules()
            .responses();
    assertThat(ietf.headers()).isEqualTo(Responses.Headers.IETF);
    assertThat(ietf.body()).isEqualTo(Responses.Body.PROBLEM_JSON);
    assertThat(ietf.hideRuleIds()).isTrue();
    Responses github = parse("response: { reset: epoch_seconds }\nrules: []\n").rules().responses();
    assertThat(github.reset()).isEqualTo(Responses.Reset.EPOCH_SECONDS);
    assertThat(github.headers()).isEqualTo(Responses.Headers.X_RATELIMIT);
  }

  @Test
  void aRuleWithoutItsOwnResponseAnswers429WithTheFilesBody() {
    RuleResponse response = rule(parse("rules:\n" + RULE + " }\n"), "api").response();
    assertThat(response.status()).isEqualTo(429);
    assertThat(response.body()).isNull();
  }

  @Test
  void aRuleMayGiveItsOwnStatusAndBody() {
    RuleResponse statusOnly =
        rule(parse("rules:\n" + RULE + ", response: { status: 503 } }\n"), "api").response();
    assertThat(statusOnly.status()).isEqualTo(503);
    assertThat(statusOnly.body()).isNull();
    RuleResponse text =
        rule(parse("rules:\n" + RULE + ", response: { body: 'Slow down.' } }\n"), "api").response();
    assertThat(text.status()).isEqualTo(429);
    assertThat(text.body()).isEqualTo("Slow down.");
    assertThat(text.contentType()).isEqualTo("text/plain");
    RuleResponse json =
        rule(
                parse(
                    "rules:\n"
                        + RULE
                        + ", response: { status: 400, body: '{\"e\":1}',"
                        + " content_type: 'application/json; profile=\"x\"' } }\n"),
                "api")
            .response();
    assertThat(json.status()).isEqualTo(400);
    assertThat(json.contentType()).isEqualTo("application/json; profile=\"x\"");
  }

  @Test
  void hiddenNamesAreStableAndTellRulesApart() {
    String hidden = RuleResponse.standard("login").hiddenName();
    assertThat(hidden)
        .matches("[0-9a-f]{12}")
        .isEqualTo(RuleResponse.standard("login").hiddenName());
    assertThat(RuleResponse.standard("login2").hiddenName()).isNotEqualTo(hidden);
  }

  @Test
  void mistakesAreReportedWithTheirPlace() {
    assertThat(
            places(
                """
                response:
                  headers: draft
                  body: xml
                  hide_rule_ids: "yes"
                  bogus: 1
                rules:
                  - { id: a, match: { path: /a }, key: ip, limit: 1, window: 1m,
                      response: { status: 302 } }
                  - { id: b, match: { path: /b }, key: ip, limit: 1, window: 1m,
                      response: { status: 600, content_type: text/plain } }
                  - { id: c, match: { path: /c }, key: ip, limit: 1, window: 1m,
                      response: { body: x, content_type: "text/plain\\r\\nX-Evil: 1", code: 1 } }
                """))
        .containsExactly(
            "2 response.headers",
            "3 response.body",
            "4 response.hide_rule_ids",
            "5 response.bogus",
            "8 rules[0] (a).response.status",
            "10 rules[1] (b).response.status",
            "10 rules[1] (b).response.content_type",
            "12 rules[2] (c).response.content_type",
            "12 rules[2] (c).response.code");
  }

  @Test
  void epochSecondsAreForXRateLimitResetOnly() {
    assertThat(
            onlyError("response: { headers: ietf, reset: epoch_seconds }\nrules: []\n").message())
        .isEqualTo(
            "applies to headers: x_ratelimit only (the RateLimit field's t is always in seconds"
                + " from now)");
  }

  @Test
  void responsesAreNoDefaultOfRules() {
    assertThat(places("defaults: { response: { status: 503 } }\nrules: []\n"))
        .containsExactly("1 defaults.response");
  }

  @Test
  void aHugeBodyIsRefused() {
    String body = "x".repeat(ResponseReader.MAX_BODY_CHARS + 1);
    assertThat(onlyError("rules:\n" + RULE + ", response: { body: " + body + " } }\n").message())
        .isEqualTo("has 16385 characters; the most a body may have is 16384");
  }
}
