package dev.sluice.it.agent;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RESET;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.AdminChecks;
import dev.sluice.it.CorsChecks;
import dev.sluice.it.DelayChecks;
import dev.sluice.it.HangUpChecks;
import dev.sluice.it.OwnBodyChecks;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** An app with servlets and no filter at all: the container calls the servlet straight away. */
abstract class PlainServletScenario extends AgentScenario {
  @Override
  String rules() {
    return helloRules(
        3,
        """
          - { id: health-trap, match: { path: /health }, key: ip, limit: 1, window: 1h }
        """
            + OwnBodyChecks.RULE
            + AdminChecks.RULE
            + DelayChecks.RULE
            + HangUpChecks.RULE
            + "exclude: [/health]\n"
            + DelayChecks.MAX_WAITING
            + CorsChecks.SECTION
            + AdminChecks.SECTION);
  }

  @Test
  void countsDownThenRejectsWith429WithoutCallingTheServlet() throws Exception {
    int served = http.served();
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = http.get("/api/hello", "10.1.0.1");
      assertThat(allowed.statusCode()).isEqualTo(200);
      assertThat(allowed.body()).isEqualTo("hello");
      assertThat(number(allowed, LIMIT)).isEqualTo(3);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(3 - i);
      assertThat(number(allowed, RESET)).isBetween(1L, 3600L);
      assertThat(allowed.headers().firstValue(RETRY_AFTER)).isEmpty();
    }
    HttpResponse<String> denied = http.get("/api/hello", "10.1.0.1");
    assertRejected(denied, "hello");
    assertThat(number(denied, REMAINING)).isZero();
    assertThat(http.served() - served).as("requests the servlet served").isEqualTo(3);
    assertThat(http.get("/api/hello", "10.1.0.2").statusCode())
        .as("another client has its own limit")
        .isEqualTo(200);
  }

  @Test
  void aDelayedRuleServesABurstAtItsRateAndDeniesTheRestAtOnce() throws Exception {
    DelayChecks.assertABurstIsServedAtTheRateAndTheRestDeniedAtOnce(http, "10.1.9.1");
  }

  /** What the container's JVM writes while a client hangs up must hold no error either. */
  @Test
  void aClientThatHangsUpWhileWaitingKeepsItsSlotAndLeavesNothingWaiting() throws Exception {
    int before = server.jvm().output().length();
    HangUpChecks.assertAHungUpRequestKeepsItsSlotAndLeavesNothingWaiting(
        http,
        "10.1.9.2",
        new HangUpChecks.ServerSide() {
          @Override
          public void whileWaiting() {}

          @Override
          public void afterwards() {
            assertThat(server.jvm().output().substring(before))
                .doesNotContain("Exception")
                .doesNotContain("SEVERE")
                .doesNotContain("WARN");
          }
        });
  }

  @Test
  void corsPreflightsPassUncountedAndA429IsReadableByTheListedOrigin() throws Exception {
    CorsChecks.assertPreflightsUncountedAndA429Readable(http, "10.1.2.1");
  }

  @Test
  void aRuleAnswersWithItsOwnStatusAndBodyOfTheRightLength() throws Exception {
    OwnBodyChecks.assertTheRulesOwnRejection(http, "10.1.3.1");
  }

  @Test
  void theAdminEndpointAnswersTheOperatorUncounted() throws Exception {
    AdminChecks.assertStatusMetricsAndPageAnswerTheOperatorUncounted(http);
  }

  @Test
  void theAdminEndpointRefusesLikeAnUnknownPath() throws Exception {
    AdminChecks.assertRefusalsLookLikeAnUnknownPath(http);
  }

  @Test
  void theAdminEndpointShowsTheFileRulesButNeverWritesThem() throws Exception {
    AdminChecks.assertFileRulesAreReadButNeverWritten(http);
  }

  @Test
  void pathsWithoutARuleAndExcludedPathsAreUntouched() throws Exception {
    for (String path : new String[] {"/health", "/count", "/somewhere/else"}) {
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> response = http.get(path, "10.1.1.1");
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        assertThat(response.headers().map().keySet())
            .as(path)
            .noneMatch(name -> name.regionMatches(true, 0, "X-RateLimit-", 0, 12));
      }
    }
  }

  @Test
  void eachRuleCountsItsDecisionsInJmx() throws Exception {
    for (int i = 0; i < 4; i++) {
      http.get("/api/hello", "10.1.4.1");
    }
    try (ChildMBeans beans = ChildMBeans.of(server.jvm().pid())) {
      String hello = "dev.sluice:type=Rule,context=agent,name=hello";
      assertThat((Long) beans.attribute(hello, "Allowed")).isGreaterThanOrEqualTo(3);
      assertThat((Long) beans.attribute(hello, "Denied")).isGreaterThanOrEqualTo(1);
      assertThat((String) beans.attribute("dev.sluice:type=Config,context=agent", "RulesVersion"))
          .matches("[0-9a-f]{12}");
      assertThat(beans.attribute("dev.sluice:type=Store,context=agent", "Type"))
          .isEqualTo("memory");
    }
  }
}
