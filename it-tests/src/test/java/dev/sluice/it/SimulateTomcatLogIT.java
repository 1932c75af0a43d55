package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar sluice-agent.jar simulate} on a log a real Tomcat 11 wrote: the app runs the
 * Filter with the rules, its {@code AccessLogValve} logs every request with a known pattern
 * (forwarded client and API key included), and the replay of that log must find exactly the 429s
 * the live limiter answered, rule by rule as the clients' fixed behaviour makes them.
 */
class SimulateTomcatLogIT {
  /**
   * Fixed windows of an hour: the log's whole seconds then place every request in the window it was
   * decided in, so the replay and the live limiter must agree request for request.
   */
  private static final String RULES =
      """
      client_ip: { trusted_proxies: [127.0.0.1/32] }
      defaults: { window: 1h, algorithm: fixed_window }
      rules:
        - { id: login, match: { path: /login, methods: [POST] }, key: ip, limit: 5 }
        - { id: api, match: { path: /api/** }, key: api_key, limit: 10 }
        - { id: trial, match: { path: /api/** }, key: ip, limit: 4, shadow: true }
      """;

  private static final String PATTERN =
      "%a %t \"%r\" %s %b \"%{X-Forwarded-For}i\" \"%{X-API-Key}i\"";

  private static final String CONTEXT_XML =
      """
      <Context>
        <Valve className="org.apache.catalina.valves.AccessLogValve" directory="%s"
               prefix="access" suffix=".log" rotatable="false" buffered="false"
               pattern="%s"/>
      </Context>
      """;

  @Test
  void theReplayOfTheLogFindsTheLimitersOwn429s() throws Exception {
    WebApp app = WebApp.create(RULES);
    Path logs = Files.createTempDirectory("sluice-access-log");
    Path log = logs.resolve("access.log");
    Files.createDirectories(app.dir().resolve("META-INF"));
    Files.writeString(
        app.dir().resolve("META-INF").resolve("context.xml"),
        String.format(CONTEXT_XML, logs, PATTERN.replace("\"", "&quot;")));
    Container tomcat = new Tomcat11();
    try {
      Http http = new Http(tomcat.start(app.dir()));
      awayFromTheHoursEnd();
      int sent = 0;
      int limited = 0;
      for (String[] request : traffic()) {
        String[] key = request[3] == null ? new String[0] : new String[] {"X-API-Key", request[3]};
        limited += http.send(request[0], request[1], request[2], key).statusCode() == 429 ? 1 : 0;
        sent++;
      }
      assertThat(limited).as("429s the live limiter answered").isEqualTo(6);
      awaitLines(log, sent);
    } finally {
      tomcat.stop();
    }
    assertThat(Files.readAllLines(log)).filteredOn(l -> l.contains("\" 429 ")).hasSize(6);

    String json = simulate(log);
    assertThat(number(json, "\"total\"", "lines")).isEqualTo(32);
    assertThat(number(json, "\"total\"", "skipped")).isZero();
    assertThat(number(json, "\"total\"", "denied")).as("the log's 429s").isEqualTo(6);
    assertThat(number(json, "\"total\"", "shadowDenied")).isEqualTo(9);
    assertThat(number(json, "\"id\":\"login\"", "matched")).isEqualTo(11);
    assertThat(number(json, "\"id\":\"login\"", "wouldDeny")).isEqualTo(3);
    assertThat(number(json, "\"id\":\"api\"", "matched")).isEqualTo(17);
    assertThat(number(json, "\"id\":\"api\"", "wouldDeny")).isEqualTo(3);
    assertThat(number(json, "\"id\":\"trial\"", "wouldDeny")).isEqualTo(9);
    assertThat(json)
        .contains("\"top\":[{\"identity\":\"ip=198.51.100.1\",\"wouldDeny\":3,\"requests\":8,")
        .contains("\"top\":[{\"identity\":\"key=key-a\",\"wouldDeny\":3,\"requests\":13,")
        .contains("\"notLogged\":[]");
    WebApp.deleteTree(logs);
    app.delete();
  }

  /**
   * Each client's fixed behaviour, interleaved: method, path, client address, API key. 198.51.100.1
   * logs in 8 times (login denies 3) and GETs /login twice (no rule); .2 logs in 3 times; key-a
   * calls the API 13 times from .3 (api denies 3, the shadow rule would deny 9), key-b 4 times from
   * .4, and .5 twice without a key (counted by the shadow rule only).
   */
  private static List<String[]> traffic() {
    List<String[]> requests = new ArrayList<>();
    for (int i = 0; i < 13; i++) {
      add(requests, i < 8, "POST", "/login", "198.51.100.1", null);
      add(requests, i < 3, "POST", "/login", "198.51.100.2", null);
      add(requests, i < 2, "GET", "/login", "198.51.100.1", null);
      add(requests, true, "GET", "/api/hello", "198.51.100.3", "key-a");
      add(requests, i < 4, "GET", "/api/hello", "198.51.100.4", "key-b");
      add(requests, i < 2, "GET", "/api/hello", "198.51.100.5", null);
    }
    return requests;
  }

  private static void add(
      List<String[]> requests, boolean when, String method, String path, String ip, String key) {
    if (when) {
      requests.add(new String[] {method, path, ip, key});
    }
  }

  /** Waits past the top of the hour if it is less than a minute away: one window for all. */
  private static void awayFromTheHoursEnd() throws InterruptedException {
    long millis = System.currentTimeMillis() % 3_600_000;
    if (millis > 3_540_000) {
      Thread.sleep(3_600_000 - millis + 1_000);
    }
  }

  /** The valve writes a line once its request is done, maybe after the client has its answer. */
  private static void awaitLines(Path log, int lines) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!Files.exists(log) || Files.readAllLines(log).size() < lines) {
      assertThat(System.nanoTime()).as("%d lines in %s", lines, log).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  /** The report of the agent jar's {@code simulate} on {@code log}, as JSON. */
  private static String simulate(Path log) throws Exception {
    Path rules = Files.writeString(log.resolveSibling("ratelimit.yaml"), RULES);
    List<String> command =
        List.of(
            ChildJvm.java(),
            "-jar",
            Settings.agentJar().toString(),
            "simulate",
            "--rules",
            rules.toString(),
            "--log",
            log.toString(),
            "--format",
            PATTERN,
            "--json");
    try (ChildJvm simulate = ChildJvm.start("simulate", command, Map.of(), null)) {
      assertThat(simulate.awaitExit(Duration.ofSeconds(60))).as(simulate.output()).isZero();
      return simulate.output();
    }
  }

  /** The whole number {@code "name":N} that first follows {@code after} in {@code json}. */
  private static long number(String json, String after, String name) {
    int from = json.indexOf(after);
    assertThat(from).as(after + " in " + json).isNotNegative();
    Matcher m = Pattern.compile("\"" + name + "\":([0-9]+)").matcher(json);
    assertThat(m.find(from)).as(name + " after " + after + " in " + json).isTrue();
    return Long.parseLong(m.group(1));
  }
}
