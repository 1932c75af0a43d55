package dev.sluice.it;

import static dev.sluice.it.Http.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

/**
 * The admin endpoint's checks, for the Filter and the agent alike, on a config whose loopback is a
 * trusted proxy (the tests name their clients by X-Forwarded-For) with {@link #SECTION} and the
 * {@link #RULE} among its rules. The endpoint answers clients of 10.9.0.0/16 with the token, and
 * nobody else: what they get is what the app answers for a path it does not know.
 */
public final class AdminChecks {
  public static final String TOKEN = "it-admin-token-0123456789";

  /** Admitted by the config: within 10.9.0.0/16. */
  private static final String OPERATOR = "10.9.0.1";

  /** The write credential's token: rules from the local file are never written, whoever asks. */
  public static final String WRITE_TOKEN = "it-write-token-0123456789";

  public static final String SECTION =
      "admin: { path: /_sluice, allow: [10.9.0.0/16], token: "
          + TOKEN
          + ", write_token: "
          + WRITE_TOKEN
          + " }\n";

  /** A rule over the admin path: the endpoint's own answers must never count in it. */
  public static final String RULE =
      "  - { id: admin-trap, match: { path: \"/_sluice/**\" }, key: ip, limit: 1, window: 1h }\n";

  private AdminChecks() {}

  public static void assertStatusMetricsAndPageAnswerTheOperatorUncounted(Http http)
      throws Exception {
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> status = operator(http, "/_sluice/status");
      assertThat(status.statusCode()).as("status %d", i).isEqualTo(200);
      assertThat(status.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
      assertThat(status.body()).contains("\"id\":\"admin-trap\"", "\"type\":\"memory\"");
      assertThat(status.headers().firstValue("X-RateLimit-Limit")).isEmpty();
    }
    assertThat(operator(http, "/_sluice/status").body())
        .as("the trap rule counted nothing of the operator's requests")
        .contains("{\"id\":\"admin-trap\",\"mode\":\"enforce\",\"allowed\":0,\"denied\":0");
    HttpResponse<String> metrics = operator(http, "/_sluice/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body()).contains("sluice_rule_decisions_total{", "rule=\"admin-trap\"");
    HttpResponse<String> explain =
        operator(
            http,
            "/_sluice/explain?method=GET&path=/_sluice/x&ip=127.0.0.1"
                + "&header.X-Forwarded-For=10.9.9.9");
    assertThat(explain.statusCode()).isEqualTo(200);
    assertThat(explain.body())
        .contains(
            "{\"id\":\"admin-trap\",\"mode\":\"enforce\",\"matches\":true,"
                + "\"identity\":\"ip=10.9.9.9\"",
            "\"wouldAllow\":true");
    HttpResponse<String> page = operator(http, "/_sluice/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).startsWithIgnoringCase("<!doctype html>");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(csp -> assertThat(csp).contains("script-src 'sha256-"));
  }

  /** Each refusal with a client of its own: refused requests are counted as any other. */
  public static void assertRefusalsLookLikeAnUnknownPath(Http http) throws Exception {
    assertLooksUnknown(http, "/_sluice/status", "10.8.0.1", "Authorization", "Bearer " + TOKEN);
    assertLooksUnknown(http, "/_sluice/status", "10.9.0.2");
    assertLooksUnknown(
        http, "/_sluice/status", "10.9.0.3", "Authorization", "Bearer it-admin-token-01234567");
    assertLooksUnknown(http, "/_sluice/status", "10.9.0.4", "Authorization", "Basic " + TOKEN);
    // A client that claims the operator's address ahead of its own: the proxy appends the real one.
    assertLooksUnknown(
        http, "/_sluice/status", OPERATOR + ", 203.0.113.5", "Authorization", "Bearer " + TOKEN);
    String[] spellings = {
      "//_sluice/status",
      "/_sluice/./status",
      "/%5Fsluice/status",
      "/_SLUICE/status",
      "/_sluice;x=1/status",
      "/_sluice/status/"
    };
    for (int i = 0; i < spellings.length; i++) {
      assertLooksUnknown(
          http, spellings[i], "10.9.1." + (i + 1), "Authorization", "Bearer " + TOKEN);
    }
    // A write with the read token, from an allowed address of its own.
    String[] readToken = {"Authorization", "Bearer " + TOKEN, "If-Match", "\"0123456789ab\""};
    HttpResponse<String> write =
        http.sendBody("PUT", "/_sluice/rules", "10.9.2.1", "rules: []\n", readToken);
    HttpResponse<String> unknown =
        http.sendBody("PUT", "/_nowhere/rules", "10.9.2.1", "rules: []\n", readToken);
    assertThat(write.statusCode())
        .as("a write with the read token")
        .isEqualTo(unknown.statusCode());
    assertThat(write.body().replace("sluice", "nowhere")).isEqualTo(unknown.body());
    HttpResponse<String> again = http.get("/_sluice/status", "10.8.0.1");
    assertRejected(again, "admin-trap");
  }

  /**
   * {@code /rules} shows the local file in force with its rules version as the ETag, and a write
   * with the write credential reads its body and answers 409: the file is never rewritten.
   */
  public static void assertFileRulesAreReadButNeverWritten(Http http) throws Exception {
    HttpResponse<String> rules = operator(http, "/_sluice/rules");
    assertThat(rules.statusCode()).isEqualTo(200);
    assertThat(rules.body()).contains("id: admin-trap");
    String etag = rules.headers().firstValue("ETag").orElseThrow();
    assertThat(etag).matches("\"[0-9a-f]{12}\"");
    String body = "rules: []\n";
    HttpResponse<String> write =
        http.sendBody(
            "PUT",
            "/_sluice/rules",
            OPERATOR,
            body,
            "Authorization",
            "Bearer " + WRITE_TOKEN,
            "If-Match",
            etag);
    assertThat(write.statusCode()).as(write.body()).isEqualTo(409);
    assertThat(write.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    assertThat(write.body()).contains("which this endpoint never rewrites");
    assertThat(operator(http, "/_sluice/rules").body()).isEqualTo(rules.body());
  }

  static HttpResponse<String> operator(Http http, String path) throws Exception {
    return http.get(path, OPERATOR, "Authorization", "Bearer " + TOKEN);
  }

  /**
   * {@code path} from {@code client} gets just what the app answers for the same path with {@code
   * _sluice} spelled otherwise, which no rule or endpoint knows.
   */
  private static void assertLooksUnknown(Http http, String path, String client, String... headers)
      throws Exception {
    HttpResponse<String> refused = http.get(path, client, headers);
    String elsewhere =
        path.replace("_sluice", "_nowhere")
            .replace("_SLUICE", "_NOWHERE")
            .replace("%5Fsluice", "%5Fnowhere");
    HttpResponse<String> unknown = http.get(elsewhere, client, headers);
    assertThat(refused.statusCode()).as(path + " from " + client).isEqualTo(unknown.statusCode());
    assertThat(refused.body().replace("sluice", "nowhere").replace("SLUICE", "NOWHERE"))
        .as(path + " from " + client)
        .isEqualTo(unknown.body());
    assertThat(refused.headers().firstValue("Content-Security-Policy")).isEmpty();
    assertThat(refused.body()).doesNotContain("\"rules\"");
  }
}
