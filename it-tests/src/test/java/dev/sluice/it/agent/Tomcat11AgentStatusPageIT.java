package dev.sluice.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.browser.HeadlessChromium;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The status page of an agent on Tomcat 11 in a real browser, after real traffic: it renders with
 * no error, and shows what the rules decided. Its screenshot is the one docs/operations.md shows
 * (copied from target/ by hand when the page changes).
 */
class Tomcat11AgentStatusPageIT extends AgentScenario {
  private static final String TOKEN = "status-page-it-token-0123";

  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }

  @Override
  String rules() {
    return helloRules(
        3,
        "  - { id: count, match: { path: /count }, key: ip, limit: 20, window: 1m }\n"
            + "admin: { allow: [10.9.0.0/16], token: "
            + TOKEN
            + " }\n");
  }

  @Test
  void thePageShowsTheDecisionsOfRealTraffic() throws Exception {
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      // The browser sits behind the trusted proxy of this config (loopback), as an operator at
      // 10.9.0.1 whose proxy names it: the proxy's own address would name nobody.
      browser.open(
          http.url("/_sluice/"),
          Map.of("Authorization", "Bearer " + TOKEN, "X-Forwarded-For", "10.9.0.1"));
      browser.waitUntil(
          "document.querySelectorAll('#rules tr[data-rule]').length === 2", "both rules shown");
      // Six seconds of clients over their limits: the page polls every two, so it sees a rate.
      long end = System.nanoTime() + 6_000_000_000L;
      for (int i = 0; i < 600 && System.nanoTime() < end; i++) {
        http.get("/api/hello", "10.7.0." + (i % 12));
        if (i % 5 == 0) {
          http.get("/count", "10.7.1.1");
        }
        Thread.sleep(10);
      }
      browser.waitUntil(
          "+document.querySelector('#rules tr[data-rule=\"hello\"]').cells[3].textContent"
              + ".replace(/,/g, '') > 30",
          "hello's denials shown");
      browser.waitUntil(
          "new Set(document.querySelector('#chart polyline[data-rule=\"hello\"]')"
              + ".getAttribute('points').trim().split(/\\s+/).map(p => p.split(',')[1])).size > 1",
          "hello's 429 rate drawn");
      browser.waitUntil(
          "document.querySelectorAll('#top-limited td.client').length >= 10",
          "the top limited clients listed");
      assertThat(
              browser.evaluate("document.getElementById('store-type').textContent").getAsString())
          .isEqualTo("memory");
      browser.screenshot(Path.of("target", "status-page-tomcat11-agent.png"));
      assertThat(browser.errors()).as("errors on the page").isEmpty();
    }
  }
}
