package dev.sluice.admin;

import static dev.sluice.admin.AdminTesting.get;
import static dev.sluice.admin.AdminTesting.json;
import static dev.sluice.admin.AdminTesting.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import dev.sluice.http.Enforcer;
import dev.sluice.http.FakeExchange;
import dev.sluice.metrics.PrometheusText;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the endpoint answers to whom it allows, and that none of it is counted. */
class AdminEndpointTest {
  private static final String RULES =
      "rules:\n"
          + "  - { id: everything, match: { path: /** }, key: ip, limit: 1, window: 1m }\n"
          + "  - { id: trial, match: { path: /login }, key: ip, limit: 1, window: 1m,"
          + " shadow: true }\n";

  private final AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.1/32");

  private FakeExchange answered(String path) throws Exception {
    FakeExchange exchange = get(path, "127.0.0.1", null);
    assertThat(t.admin.answered(exchange)).as(path).isTrue();
    return exchange;
  }

  @Test
  @SuppressWarnings("unchecked")
  void statusReportsEachRuleWithItsModeAndCounts() throws Exception {
    for (int i = 0; i < 3; i++) {
      t.limiter.decide(TestRequest.get("/login").from("198.51.100.7"));
    }
    FakeExchange status = answered("/_sluice/status");
    assertThat(status.contentType).isEqualTo("application/json");
    Map<String, Object> json = json(status.body);
    assertThat(json.get("time")).isEqualTo(1_800_000_000_000L);
    List<Map<String, Object>> rules = (List<Map<String, Object>>) json.get("rules");
    assertThat(rules).extracting(r -> r.get("id")).containsExactly("everything", "trial");
    assertThat(rules).extracting(r -> r.get("mode")).containsExactly("enforce", "shadow");
    assertThat(rules.get(0)).containsEntry("allowed", 1).containsEntry("denied", 2);
    List<Map<String, Object>> top = (List<Map<String, Object>>) rules.get(0).get("topLimited");
    assertThat(top).hasSize(1);
    assertThat(top.get(0)).containsEntry("denials", 2);
    Map<String, Object> store = (Map<String, Object>) json.get("store");
    assertThat(store).containsEntry("type", "memory").containsEntry("fleetSize", 1);
    assertThat((Map<String, Object>) json.get("config"))
        .containsEntry("lastReload", "none")
        .containsEntry("identities", "hashed");
  }

  @Test
  @SuppressWarnings("unchecked")
  void theHistoryKeepsOnePointAnIntervalForTenMinutes() throws Exception {
    for (int i = 0; i < 70; i++) {
      t.limiter.decide(TestRequest.get("/x").from("198.51.100.7"));
      t.admin.sample();
      t.admin.sample(); // a second time in the same interval: no second point
      t.clock.advanceSeconds(History.INTERVAL_SECONDS);
    }
    Map<String, Object> history =
        (Map<String, Object>) json(answered("/_sluice/status").body).get("history");
    assertThat(history).containsEntry("intervalSeconds", History.INTERVAL_SECONDS);
    List<Map<String, Object>> points = (List<Map<String, Object>>) history.get("points");
    assertThat(points).hasSize(History.POINTS);
    Map<String, Object> last = points.get(points.size() - 1);
    Map<String, Object> counts =
        (Map<String, Object>) ((Map<String, Object>) last.get("rules")).get("everything");
    assertThat((long) (Integer) counts.get("allowed") + (Integer) counts.get("denied"))
        .isEqualTo(70);
    assertThat((Long) points.get(1).get("time") - (Long) points.get(0).get("time"))
        .isEqualTo(History.INTERVAL_SECONDS * 1000L);
  }

  @Test
  @SuppressWarnings("unchecked")
  void explainSaysWhatEachRuleWouldDoAndTakesNothing() throws Exception {
    String query = "method=post&path=%2Flogin&ip=198.51.100.9&header.X-API-Key=k%201";
    for (int i = 0; i < 3; i++) {
      FakeExchange explain = new FakeExchange(request("/_sluice/explain", "127.0.0.1"), query);
      assertThat(t.admin.answered(explain)).isTrue();
      assertThat(explain.status).isEqualTo(200);
      Map<String, Object> json = json(explain.body);
      assertThat((Map<String, Object>) json.get("request"))
          .containsEntry("method", "POST")
          .containsEntry("path", "/login")
          .containsEntry("ip", "198.51.100.9")
          .containsEntry("headers", Map.of("X-API-Key", "k 1"));
      List<Map<String, Object>> rules = (List<Map<String, Object>>) json.get("rules");
      assertThat(rules.get(0))
          .containsEntry("id", "everything")
          .containsEntry("matches", true)
          .containsEntry("identity", "ip=198.51.100.9")
          .containsEntry("wouldAllow", true)
          .containsEntry("remainingAfter", 0);
      assertThat(rules.get(1)).containsEntry("mode", "shadow").containsEntry("matches", true);
    }
    assertThat(t.limiter.decide(TestRequest.post("/login").from("198.51.100.9")).allowed())
        .as("explaining took nothing")
        .isTrue();
    FakeExchange after = new FakeExchange(request("/_sluice/explain", "127.0.0.1"), query);
    t.admin.answered(after);
    Map<String, Object> denied = ((List<Map<String, Object>>) json(after.body).get("rules")).get(0);
    assertThat(denied).containsEntry("wouldAllow", false);
    assertThat((Integer) denied.get("retryAfterSeconds")).isBetween(1, 120);
  }

  @Test
  @SuppressWarnings("unchecked")
  void explainShowsAKnownClientAsTheTopLimitedListNamesIt() throws Exception {
    for (int i = 0; i < 3; i++) {
      t.limiter.decide(TestRequest.get("/api").from("2001:db8:1:2::5"));
    }
    List<Map<String, Object>> rules =
        (List<Map<String, Object>>) json(answered("/_sluice/status").body).get("rules");
    List<Map<String, Object>> top = (List<Map<String, Object>>) rules.get(0).get("topLimited");
    Object listed = top.get(0).get("client");

    String query = "path=/api&ip=2001:db8:1:2::77";
    FakeExchange explain = new FakeExchange(request("/_sluice/explain", "127.0.0.1"), query);
    assertThat(t.admin.answered(explain)).isTrue();
    Map<String, Object> rule = ((List<Map<String, Object>>) json(explain.body).get("rules")).get(0);
    assertThat(rule.get("shownAs")).as("the same /64, as the page lists it").isEqualTo(listed);
    assertThat(rule.get("identity")).isNotEqualTo(listed);
  }

  @Test
  void explainWantsAPath() throws Exception {
    FakeExchange explain = new FakeExchange(request("/_sluice/explain", "127.0.0.1"), "ip=1.2.3.4");
    assertThat(t.admin.answered(explain)).isTrue();
    assertThat(explain.status).isEqualTo(400);
    assertThat(explain.body).contains("path=");
  }

  @Test
  void theMetricsAreThePrometheusText() throws Exception {
    FakeExchange metrics = answered("/_sluice/metrics");
    assertThat(metrics.contentType).isEqualTo(PrometheusText.CONTENT_TYPE);
    assertThat(metrics.body).isEqualTo(t.metrics.prometheusText());
  }

  @Test
  void thePageMayRunOnlyItsOwnScriptAndStyle() throws Exception {
    for (String path : new String[] {"/_sluice", "/_sluice/"}) {
      FakeExchange page = answered(path);
      assertThat(page.contentType).startsWith("text/html");
      assertThat(page.body).contains("<script>");
      String policy = page.headers.get("Content-Security-Policy");
      assertThat(policy)
          .startsWith("default-src 'none'; script-src 'sha256-")
          .contains("'" + HtmlPage.hashOf(page.body, "script") + "'")
          .contains("'" + HtmlPage.hashOf(page.body, "style") + "'")
          .contains("connect-src 'self'")
          .contains("frame-ancestors 'none'");
    }
  }

  @Test
  void onlyGetAndHeadAreAnsweredAndUnknownResourcesAreNotFound() throws Exception {
    FakeExchange post =
        new FakeExchange(
            TestRequest.post("/_sluice/status").from("127.0.0.1").header("Host", "localhost"));
    assertThat(t.admin.answered(post)).isTrue();
    assertThat(post.status).isEqualTo(405);
    assertThat(post.headers).containsEntry("Allow", "GET, HEAD");
    assertThat(answered("/_sluice/nothing").status).isEqualTo(404);
  }

  @Test
  void adminRequestsAreNeverCountedButRefusedOnesAreLikeAnyOther() throws Exception {
    Enforcer enforcer = new Enforcer(t.limiter, t.admin);
    for (int i = 0; i < 3; i++) {
      FakeExchange status = get("/_sluice/status", "127.0.0.1", null);
      assertThat(enforcer.admit(status)).isFalse();
      assertThat(status.status).isEqualTo(200);
    }
    assertThat(t.metrics.rules().get(0).allowed()).isZero();

    assertThat(enforcer.admit(get("/_sluice/status", "192.0.2.1", null))).isTrue();
    FakeExchange second = get("/_sluice/status", "192.0.2.1", null);
    assertThat(enforcer.admit(second)).isFalse();
    assertThat(second.status).isEqualTo(429);
  }
}
