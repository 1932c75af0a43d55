package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.RuleResponse;
import dev.sluice.core.TestRequest;
import dev.sluice.http.StructuredFieldParser.Member;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The RateLimit-Policy and RateLimit fields, read with a strict RFC 9651 parser. */
class IetfHeadersTest {
  private static final String RULES =
      """
      response: { headers: ietf }
      rules:
        - { id: per-ip, match: { path: /api/** }, key: ip, limit: 5, window: 1m,
            algorithm: fixed_window }
        - { id: elsewhere, match: { path: /other }, key: ip, limit: 9, window: 1m }
        - { id: burst.short, match: { path: /api/** }, key: ip, limit: 2, window: 500ms,
            algorithm: token_bucket }
        - { id: slow, match: { path: /api/** }, key: ip, limit: 2, window: 4s,
            algorithm: token_bucket }
        - { id: trial_1h, match: { path: /api/** }, key: ip, limit: 1, window: 1h, shadow: true }
      """;

  private static List<Member> field(FakeExchange exchange, String name) {
    assertThat(exchange.headers).containsKey(name);
    return StructuredFieldParser.list(exchange.headers.get(name));
  }

  @Test
  void everyRuleThatCountedTheRequestIsListedInTheOrderOfTheFile() throws Exception {
    FakeExchange allowed = new Responding(RULES).get("/api/x");
    assertThat(field(allowed, "RateLimit-Policy"))
        .containsExactly(
            new Member("per-ip", Map.of("q", 5L, "w", 60L)),
            new Member("burst.short", Map.of("q", 2L, "w", 1L)),
            new Member("slow", Map.of("q", 2L, "w", 4L)),
            new Member("trial_1h", Map.of("q", 1L, "w", 3600L)));
    assertThat(field(allowed, "RateLimit"))
        .containsExactly(
            new Member("per-ip", Map.of("r", 4L, "t", 60L)),
            new Member("burst.short", Map.of("r", 1L, "t", 1L)),
            new Member("slow", Map.of("r", 1L, "t", 2L)),
            new Member("trial_1h", Map.of("r", 0L, "t", 7200L)));
    assertThat(allowed.headers.keySet())
        .as("one style at a time")
        .noneMatch(name -> name.startsWith("X-RateLimit-"))
        .doesNotContain("Retry-After");
  }

  @Test
  void aRejectionsRetryAfterIsNeverBeforeTheTOfARuleThatDeniedIt() throws Exception {
    Responding responding = new Responding(RULES);
    responding.get("/api/x");
    responding.get("/api/x");
    FakeExchange denied = responding.get("/api/x");
    assertThat(denied.status).isEqualTo(429);
    long retryAfter = Long.parseLong(denied.headers.get("Retry-After"));
    assertThat(retryAfter).as("slow's next token").isEqualTo(2);
    assertThat(field(denied, "RateLimit"))
        .as("per-ip gave nothing to the denied request; slow denied it: t is its own wait")
        .containsExactly(
            new Member("per-ip", Map.of("r", 3L, "t", 60L)),
            new Member("burst.short", Map.of("r", 0L, "t", 1L)),
            new Member("slow", Map.of("r", 0L, "t", 2L)),
            new Member("trial_1h", Map.of("r", 0L, "t", 7200L)));
  }

  @Test
  void hiddenRuleIdsAreListedByTheirStandIns() throws Exception {
    FakeExchange allowed =
        new Responding(RULES.replace("{ headers: ietf }", "{ headers: ietf, hide_rule_ids: true }"))
            .get("/api/x");
    List<Object> names = field(allowed, "RateLimit-Policy").stream().map(Member::value).toList();
    assertThat(names)
        .containsExactly(
            RuleResponse.standard("per-ip").hiddenName(),
            RuleResponse.standard("burst.short").hiddenName(),
            RuleResponse.standard("slow").hiddenName(),
            RuleResponse.standard("trial_1h").hiddenName());
    assertThat(field(allowed, "RateLimit").stream().map(Member::value).toList()).isEqualTo(names);
    assertThat(allowed.headers.values())
        .noneMatch(value -> value.contains("per-ip") || value.contains("burst"));
  }

  @Test
  void aListedOriginMayReadTheFields() throws Exception {
    Responding responding =
        new Responding(RULES + "cors: { allowed_origins: [https://app.example.com] }\n");
    TestRequest request = TestRequest.get("/api/x").header("Origin", "https://app.example.com");
    responding.send(request);
    responding.send(request);
    assertThat(responding.send(request).headers)
        .containsEntry("Access-Control-Expose-Headers", "Retry-After, RateLimit, RateLimit-Policy");
  }
}
