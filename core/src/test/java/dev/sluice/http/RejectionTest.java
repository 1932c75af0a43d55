package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import dev.sluice.core.RuleResponse;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** The status and body of a denied request, in each format, and a rule's own. */
class RejectionTest {
  private static final String LOGIN =
      "  - { id: login, match: { path: /login }, key: ip, limit: 1, window: 10s,"
          + " algorithm: fixed_window";

  /** The answer to the second request to /login under {@code yaml}: the first was allowed. */
  private static FakeExchange denied(String yaml) throws Exception {
    Responding responding = new Responding(yaml);
    responding.clock.advance(2_500_000);
    assertThat(responding.get("/login").status).as("the first request").isZero();
    FakeExchange denied = responding.get("/login");
    assertThat(denied.headers).containsEntry("Retry-After", "8");
    return denied;
  }

  /** Parses {@code json} as strictly as RFC 8259 reads it. */
  private static JsonObject strictJson(String json) {
    JsonReader reader = new JsonReader(new StringReader(json));
    reader.setStrictness(Strictness.STRICT);
    JsonElement element = JsonParser.parseReader(reader);
    return element.getAsJsonObject();
  }

  @Test
  void theDefaultBodyIsJsonNamingTheRule() throws Exception {
    FakeExchange denied = denied("rules:\n" + LOGIN + " }\n");
    assertThat(denied.status).isEqualTo(429);
    assertThat(denied.contentType).isEqualTo("application/json");
    assertThat(denied.body)
        .isEqualTo("{\"error\":\"rate_limited\",\"rule\":\"login\",\"retryAfterSeconds\":8}");
  }

  @Test
  void problemJsonIsAnRfc9457Problem() throws Exception {
    FakeExchange denied = denied("response: { body: problem_json }\nrules:\n" + LOGIN + " }\n");
    assertThat(denied.status).isEqualTo(429);
    assertThat(denied.contentType).isEqualTo("application/problem+json");
    assertThat(denied.body)
        .isEqualTo(
            "{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":429,"
                + "\"detail\":\"Rule login allows no more requests now; retry after 8 seconds.\","
                + "\"rule\":\"login\",\"retryAfterSeconds\":8}");
    JsonObject problem = strictJson(denied.body);
    assertThat(problem.get("status").getAsInt()).isEqualTo(denied.status);
    assertThat(problem.get("retryAfterSeconds").getAsLong()).isEqualTo(8);
  }

  @Test
  void aRulesOwnStatusIsTheProblemsStatusAndTitle() throws Exception {
    FakeExchange denied =
        denied(
            "response: { body: problem_json }\nrules:\n"
                + LOGIN
                + ", response: { status: 503 } }\n");
    assertThat(denied.status).isEqualTo(503);
    JsonObject problem = strictJson(denied.body);
    assertThat(problem.get("status").getAsInt()).isEqualTo(503);
    assertThat(problem.get("title").getAsString()).isEqualTo("Service Unavailable");
  }

  @Test
  void aStatusWithoutARegisteredPhraseHasAProblemWithoutATitle() throws Exception {
    FakeExchange denied =
        denied(
            "response: { body: problem_json }\nrules:\n"
                + LOGIN
                + ", response: { status: 499 } }\n");
    assertThat(denied.status).isEqualTo(499);
    assertThat(strictJson(denied.body).has("title")).isFalse();
  }

  @Test
  void aRulesOwnBodyIsSentAsItIs() throws Exception {
    FakeExchange denied =
        denied(
            "response: { body: problem_json }\nrules:\n"
                + LOGIN
                + ", response: { status: 503, body: '<p>Busy</p>', content_type: text/html } }\n");
    assertThat(denied.status).isEqualTo(503);
    assertThat(denied.contentType).isEqualTo("text/html");
    assertThat(denied.body).isEqualTo("<p>Busy</p>");
  }

  @Test
  void hiddenRuleIdsAppearNowhereInTheResponse() throws Exception {
    String hidden = RuleResponse.standard("login").hiddenName();
    FakeExchange json = denied("response: { hide_rule_ids: true }\nrules:\n" + LOGIN + " }\n");
    assertThat(json.body)
        .isEqualTo(
            "{\"error\":\"rate_limited\",\"rule\":\"" + hidden + "\",\"retryAfterSeconds\":8}");
    FakeExchange problem =
        denied(
            "response: { hide_rule_ids: true, body: problem_json, headers: ietf }\nrules:\n"
                + LOGIN
                + " }\n");
    assertThat(strictJson(problem.body).get("rule").getAsString()).isEqualTo(hidden);
    assertThat(problem.body).doesNotContain("login");
    assertThat(problem.headers.values()).noneMatch(value -> value.contains("login"));
  }
}
