package dev.sluice.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.sluice.it.browser.HeadlessChromium;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Opening the status page of an agent on Tomcat 11 in a real browser, which cannot send the token
 * as a header: without it the page is the application's own answer (its 404); the login form takes the token once
 * and leaves an HttpOnly, SameSite=Strict cookie (not the token) with which the page and its polls
 * of the status are answered.
 */
class Tomcat11AgentStatusLoginIT extends AgentScenario {
  private static final String TOKEN = "status-login-it-token-0123";

  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }

  @Override
  String rules() {
    return "rules:\n"
        + "  - { id: hello, match: { path: /api/hello }, key: ip, limit: 3, window: 1h }\n"
        + "admin: { allow: [127.0.0.1/32], token: "
        + TOKEN
        + " }\n";
  }

  @Test
  void aBrowserLogsInWithTheTokenOnceAndSeesThePage() throws Exception {
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      // Without the token the page is what the application answers for a path it does not know:
      // this one's servlet on / says hello to every path (a real application, its 404).
      browser.open(http.url("/_sluice/"), Map.of());
      assertThat(browser.status()).as("the page without the token").isEqualTo(200);
      assertThat(browser.evaluate("document.body.textContent").getAsString()).isEqualTo("hello");

      browser.open(http.url("/_sluice/login"), Map.of());
      assertThat(browser.status()).isEqualTo(200);
      browser.navigateBy(typeAndSubmit("not-the-token-0123456789"));
      assertThat(browser.status()).isEqualTo(403);
      assertThat(browser.evaluate("document.getElementById('message').textContent").getAsString())
          .isEqualTo("That is not the token.");
      assertThat(browser.cookies()).isEmpty();

      browser.navigateBy(typeAndSubmit(TOKEN));
      assertThat(browser.evaluate("location.pathname").getAsString()).isEqualTo("/_sluice/");
      browser.waitUntil(
          "document.querySelectorAll('#rules tr[data-rule]').length === 1"
              + " && document.getElementById('updated').textContent.startsWith('updated ')",
          "the page shows the status it polled with the cookie");
      assertThat(browser.evaluate("document.cookie").getAsString())
          .as("HttpOnly: no script reads it")
          .isEmpty();
      assertThat(browser.cookies()).hasSize(1);
      JsonObject cookie = browser.cookies().get(0).getAsJsonObject();
      assertThat(cookie.get("name").getAsString()).isEqualTo("sluice-admin");
      assertThat(cookie.get("value").getAsString()).doesNotContain(TOKEN);
      assertThat(cookie.get("path").getAsString()).isEqualTo("/_sluice");
      assertThat(cookie.get("httpOnly").getAsBoolean()).isTrue();
      assertThat(cookie.get("sameSite").getAsString()).isEqualTo("Strict");
      assertThat(cookie.get("session").getAsBoolean()).as("it expires").isFalse();

      // What the browser logged: the 403 of the wrong token, nothing else.
      assertThat(browser.errors())
          .isNotEmpty()
          .allMatch(error -> error.contains("status of 403"), "the wrong token's 403");
    }
  }

  private static String typeAndSubmit(String token) {
    return "document.getElementById('token').value = '"
        + token
        + "'; document.querySelector('form').submit();";
  }
}
