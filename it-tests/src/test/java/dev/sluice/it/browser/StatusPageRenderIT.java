package dev.sluice.it.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.reflect.TypeToken;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint's status page (core/src/main/resources/dev/sluice/admin/status.html) in a
 * real browser, under the Content Security Policy it is served with, fed a changing status: it must
 * show what the JSON says, draw the 429 rate, say when the status cannot be read, and treat client
 * identities, which anyone sending requests chooses, as text.
 */
class StatusPageRenderIT {
  private static final String TOKEN = "status-page-token";
  private static final Map<String, String> AUTH = Map.of("Authorization", "Bearer " + TOKEN);
  private static final String HOSTILE = "<img src=x onerror=alert(1)>";
  private static final String ROWS = "#rules tbody tr[data-rule]";

  @Test
  void showsTheStatusAndFollowsItsChanges() throws Exception {
    CannedStatus status = new CannedStatus(HOSTILE);
    try (StatusPageServer server = new StatusPageServer(status, TOKEN);
        HeadlessChromium browser = HeadlessChromium.start()) {
      browser.open(server.url("/_sluice/"), AUTH);
      browser.waitUntil(count(ROWS) + " === 3", "the rules table is filled");
      assertThat(browser.errors()).as("errors on the page").isEmpty();

      assertThat(rows(browser, cells(ROWS)))
          .containsExactly(
              List.of("login", "enforce", "120", "7", "0", "3", "1", "4", "250 ms", "2", "0"),
              List.of(
                  "api",
                  // textContent: the pills and the line under them run together
                  "enforcelocal first42 held in 3 leases · synced 2 s ago · unspent 2 of 500"
                      + " leased",
                  "4,321", "12", "0", "0", "0", "0", "", "0", "0"),
              List.of(
                  "search",
                  "shadow enforces at " + clock(status.start + 600_000),
                  "50",
                  "0",
                  "9",
                  "0",
                  "0",
                  "0",
                  "",
                  "0",
                  "0"));
      assertThat(strings(browser, attribute(ROWS, "data-rule")))
          .containsExactly("login", "api", "search");
      assertThat(text(browser, "config-version")).isEqualTo(CannedStatus.VERSION);
      assertThat(text(browser, "rules-count")).isEqualTo("3");
      assertThat(text(browser, "last-reload")).startsWith("applied at ");
      assertThat(text(browser, "store-type")).isEqualTo("redis (shared)");
      assertThat(text(browser, "fleet-size")).isEqualTo("2");
      assertThat(text(browser, "updated")).startsWith("updated ");
      assertThat(text(browser, "latency-p50")).isEqualTo("0.42 ms");
      assertThat(text(browser, "latency-p99")).isEqualTo("3.10 ms");
      assertThat(strings(browser, attribute("#breakers li", "data-master")))
          .containsExactly("10.0.0.1:6379", "10.0.0.2:6379");
      assertThat(strings(browser, attribute("#breakers li", "data-state")))
          .containsExactly("closed", "open");

      // Shown as the characters they are: no element made of them, no handler run.
      assertThat(strings(browser, texts("#top-limited td.client")))
          .containsExactly(HOSTILE, "203.0.113.9", "key:abc");
      assertThat(browser.evaluate(count("#top-limited img")).getAsInt()).isZero();
      String hashedNote = "document.getElementById('identities-hashed').hidden";
      assertThat(browser.evaluate(hashedNote).getAsBoolean())
          .as("the page says why the clients are hashed")
          .isFalse();
      assertThat(text(browser, "identities-hashed"))
          .as("and how to find a client one knows")
          .contains("/_sluice/explain?path=", "shownAs", "sha256sum");
      assertThat(strings(browser, texts("#top-limited td.overcount")))
          .containsExactly("1", "0", "2");
      assertThat(strings(browser, attribute("#top-limited th.num:last-child", "title")))
          .allMatch(title -> title.contains("displaced"));
      String overcountNote = "document.getElementById('overcount-note').hidden";
      assertThat(browser.evaluate(overcountNote).getAsBoolean())
          .as("the page says what the overcount is")
          .isFalse();
      assertThat(browser.evaluate(display("#rules th.local")).getAsString())
          .as("a Redis store decides locally when Redis cannot answer")
          .isNotEqualTo("none");

      status.reloadUnchanged();
      browser.waitUntil(
          "document.getElementById('last-reload').textContent"
              + ".startsWith('file unchanged, last read at ')",
          "an unchanged file is said so");

      // One line per rule the history or the polls hold, the retired one included; flat so far.
      assertThat(strings(browser, attribute("#chart polyline", "data-rule")))
          .containsExactlyInAnyOrder("old", "login", "api", "search");
      status.denyEverySecond("login", 20);
      status.deny("api", 100);
      browser.waitUntil(
          "Math.abs(parseFloat(" + rateCell("login") + ") - 20) < 2", "login shows 20 429/s");
      for (String rule : List.of("login", "api")) {
        browser.waitUntil(
            "new Set(" + heights(rule) + ").size > 1", rule + "'s line leaves the floor");
      }
      browser.screenshot(Path.of("target", "status-page.png"));

      // A counter that starts again from zero is a reset, not a negative rate.
      status.resetDenied("login");
      browser.waitUntil(cell("login", 3) + " === '0'", "login's denials start again");
      assertThat(browser.evaluate(rateCell("login")).getAsString()).isEqualTo("0");
      double floor = browser.evaluate(zeroLine()).getAsDouble();
      assertThat(browser.evaluate("Math.max(..." + heights("login") + ")").getAsDouble())
          .isLessThanOrEqualTo(floor);
      assertThat(browser.errors()).as("errors on the page").isEmpty();

      server.failWith(500);
      browser.waitUntil(
          "!document.getElementById('error').hidden"
              + " && document.getElementById('error').textContent.includes('HTTP 500')",
          "the error banner appears");
      server.failWith(0);
      browser.waitUntil("document.getElementById('error').hidden", "the error banner goes");
      // The browser logs each failed fetch itself; nothing else may have gone wrong.
      assertThat(browser.errors())
          .isNotEmpty()
          .allMatch(error -> error.contains("status of 500"), "a failed fetch of the status");
    }
  }

  @Test
  void aBurstShorterThanAHistoryPointShowsItsBusiestSecond() throws Exception {
    CannedStatus status = new CannedStatus(HOSTILE);
    status.burstInHistory("api", 2_000, 5_000.0);
    try (StatusPageServer server = new StatusPageServer(status, TOKEN);
        HeadlessChromium browser = HeadlessChromium.start()) {
      browser.open(server.url("/_sluice/"), AUTH);
      browser.waitUntil(count(ROWS) + " === 3", "the rules table is filled");
      browser.waitUntil(count("#chart polygon.peak") + " === 1", "one rule's peak is drawn");
      assertThat(browser.errors()).as("errors on the page").isEmpty();

      assertThat(strings(browser, attribute("#chart polygon.peak", "data-rule")))
          .containsExactly("api");
      assertThat(browser.evaluate("document.getElementById('peak-note').hidden").getAsBoolean())
          .isFalse();
      // The line is the point's average, the band reaches its busiest second: 2,000 and 5,000.
      double floor = browser.evaluate(zeroLine()).getAsDouble();
      double line = browser.evaluate("Math.min(..." + heights("api") + ")").getAsDouble();
      double peak = browser.evaluate("Math.min(..." + bandHeights("api") + ")").getAsDouble();
      assertThat((floor - line) / (floor - peak)).isCloseTo(0.4, within(0.01));
      assertThat(strings(browser, texts("#chart text"))).contains("5000");
      browser.screenshot(Path.of("target", "status-page-peak.png"));
    }
  }

  @Test
  void readsTheStatusFromTheBaseWithoutASlashToo() throws Exception {
    CannedStatus status = new CannedStatus(HOSTILE);
    status.inMemory();
    status.rejectReload("rules[2].limit: <b>not</b> a number");
    try (StatusPageServer server = new StatusPageServer(status, TOKEN);
        HeadlessChromium browser = HeadlessChromium.start()) {
      browser.open(server.url(StatusPageServer.BASE), AUTH);
      browser.waitUntil(count(ROWS) + " === 3", "the rules table is filled");
      assertThat(browser.errors()).as("errors on the page").isEmpty();

      assertThat(text(browser, "last-reload")).startsWith("rejected at ");
      assertThat(text(browser, "problem")).endsWith("rules[2].limit: <b>not</b> a number");
      assertThat(browser.evaluate("document.getElementById('problem').hidden").getAsBoolean())
          .isFalse();
      assertThat(text(browser, "store-type")).isEqualTo("memory");
      assertThat(strings(browser, all("#rules .local", "getComputedStyle(e).display")))
          .as("a memory store never decides locally: no such columns")
          .hasSize(2 + 2 * 3)
          .containsOnly("none");
      assertThat(text(browser, "latency-p50")).isEqualTo("–");
      assertThat(text(browser, "latency-p99")).isEqualTo("–");
      assertThat(browser.evaluate(count("#breakers li")).getAsInt()).isZero();
      assertThat(browser.evaluate("document.getElementById('breakers-none').hidden").getAsBoolean())
          .isFalse();
    }
  }

  /**
   * {@code millis} as the page shows a time of today: HH:MM:SS in the browser's zone (the JVM's).
   */
  private static String clock(long millis) {
    return DateTimeFormatter.ofPattern("HH:mm:ss")
        .format(Instant.ofEpochMilli(millis).atZone(ZoneId.systemDefault()));
  }

  private static String count(String selector) {
    return "document.querySelectorAll('" + selector + "').length";
  }

  private static String all(String selector, String each) {
    return "Array.from(document.querySelectorAll('" + selector + "'), e => " + each + ")";
  }

  private static String display(String selector) {
    return "getComputedStyle(document.querySelector('" + selector + "')).display";
  }

  private static String cells(String rows) {
    return all(rows, "Array.from(e.cells, c => c.textContent)");
  }

  private static String attribute(String selector, String name) {
    return all(selector, "e.getAttribute('" + name + "')");
  }

  private static String texts(String selector) {
    return all(selector, "e.textContent");
  }

  private static String cell(String rule, int column) {
    return "document.querySelector('#rules tr[data-rule=\""
        + rule
        + "\"]').cells["
        + column
        + "]"
        + ".textContent";
  }

  private static String rateCell(String rule) {
    return cell(rule, 10);
  }

  /** The y of each point of a rule's line: the same everywhere when its rate never changed. */
  private static String heights(String rule) {
    return ys("#chart polyline[data-rule=\"" + rule + "\"]");
  }

  /** The y of each corner of a rule's peak band. */
  private static String bandHeights(String rule) {
    return ys("#chart polygon.peak[data-rule=\"" + rule + "\"]");
  }

  private static String ys(String selector) {
    return "document.querySelector('"
        + selector
        + "').getAttribute('points').trim().split(/\\s+/).map(p => +p.split(',')[1])";
  }

  /** The y of the chart's x axis, where a rate of 0 is drawn (it is drawn first). */
  private static String zeroLine() {
    return "+document.querySelector('#chart line.axis').getAttribute('y1')";
  }

  private static String text(HeadlessChromium browser, String id) {
    return browser.evaluate("document.getElementById('" + id + "').textContent").getAsString();
  }

  private static List<String> strings(HeadlessChromium browser, String expression) {
    JsonElement value = browser.evaluate(expression);
    return new Gson().fromJson(value, new TypeToken<List<String>>() {}.getType());
  }

  private static List<List<String>> rows(HeadlessChromium browser, String expression) {
    JsonElement value = browser.evaluate(expression);
    return new Gson().fromJson(value, new TypeToken<List<List<String>>>() {}.getType());
  }
}
