package dev.sluice.it.agent.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.AdminChecks;
import dev.sluice.it.Http;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 28: a flood of 500 connections at once on a delayed rule (one client at 20/s with max_wait
 * 5s: a queue of 100 slots, each connection retrying once answered) must not take the server's
 * threads. With the default {@code max_waiting} (4 in the whole JVM) at most four requests sleep
 * for their slot, the rest of the flood is denied at once, and {@code /health}, the other paths and
 * {@code /_sluice} keep answering. The Boot jar is started once per class with the agent, whose
 * waiting room is the Filter's and the starter's (one engine); Undertow on two cores has 16
 * workers, so before the cap a flood took them all.
 *
 * <p>What is asserted, robustly on a loaded two-core machine: the median of the probes of each
 * path, taken 100 ms apart while the flood lasts (up to 25, at least 5), is under 100 ms (each
 * probe is printed, with its p90 and its longest); the requests waiting, read from the metrics at
 * each probe, never exceed 4; and the flood kept the waiting room full (the median of those reads
 * is 4: the probes measure a flooded server) and was mostly denied.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DelayFloodScenario {
  private static final String CONFIG =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: flood, match: { path: /api/hello }, key: ip, limit: 20, window: 1s,
            algorithm: token_bucket, delay: { max_wait: 5s } }
      """;

  private static final Pattern WAITING =
      Pattern.compile("sluice_rule_waiting\\{rule=\"flood\"} (\\d+)");
  private static final int CAP = 4;

  private Path config;
  private BootJar app;
  private Http http;

  /** The system property that names the executable jar (set in it-tests/pom.xml). */
  abstract String jarProperty();

  @BeforeAll
  void start() throws Exception {
    config = Files.createTempFile("sluice-flood-it", ".yaml");
    Files.writeString(config, CONFIG + AdminChecks.SECTION);
    app = BootJar.start(jarProperty(), config);
    http = app.http();
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (app != null) {
        app.stop();
      }
    } finally {
      Files.deleteIfExists(config);
    }
  }

  @Test
  void aFloodOnADelayedRuleLeavesTheOtherPathsAndTheEndpointAnswering() throws Exception {
    for (String path : new String[] {"/count", "/health", "/api/hello"}) {
      http.get(path, "10.27.0.9"); // warm: the first requests of a fresh JVM load classes
    }
    operator("/_sluice/metrics");
    List<Long> count = new ArrayList<>();
    List<Long> health = new ArrayList<>();
    List<Long> status = new ArrayList<>();
    List<Long> waiting = new ArrayList<>();
    try (Flood flood = Flood.start(http, "/api/hello", "10.28.1.1", 500, 8_000)) {
      Thread.sleep(500); // the flood's connections open
      for (int i = 0; i < 25 && flood.lasts(); i++) {
        count.add(millis(() -> http.get("/count", "10.27.2.1")));
        health.add(millis(() -> http.get("/health", "10.27.2.2")));
        status.add(millis(() -> operator("/_sluice/status")));
        waiting.add(waitingNow());
        Thread.sleep(100);
      }
      flood.awaitEnd();
      System.out.printf(
          "flood %s: %s; /count %s ms; /health %s ms; /_sluice/status %s ms; waiting %s%n",
          jarProperty(), flood, count, health, status, waiting);
      assertThat(flood.failures()).as("every flood request answered").isZero();
      assertThat(flood.denied()).as("most of the flood denied at once").isGreaterThan(100);
    }
    assertThat(waiting).as("probes during the flood").hasSizeGreaterThanOrEqualTo(5);
    assertThat(Collections.max(waiting)).as("waiting, never past the cap").isLessThanOrEqualTo(CAP);
    assertThat(median(waiting)).as("waiting room full in the flood: %s", waiting).isEqualTo(CAP);
    assertMedianUnder100(count, "/count");
    assertMedianUnder100(health, "/health");
    assertMedianUnder100(status, "/_sluice/status");
  }

  private HttpResponse<String> operator(String path) throws Exception {
    return http.get(path, "10.9.0.1", "Authorization", "Bearer " + AdminChecks.TOKEN);
  }

  private long waitingNow() throws Exception {
    Matcher m = WAITING.matcher(operator("/_sluice/metrics").body());
    assertThat(m.find()).as("the waiting gauge of the flood rule").isTrue();
    return Long.parseLong(m.group(1));
  }

  private interface Probe {
    HttpResponse<String> send() throws Exception;
  }

  private static long millis(Probe probe) throws Exception {
    long began = System.nanoTime();
    HttpResponse<String> response = probe.send();
    long took = (System.nanoTime() - began) / 1_000_000;
    assertThat(response.statusCode()).as("answered, not limited").isIn(200, 404);
    return took;
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static void assertMedianUnder100(List<Long> millis, String path) {
    List<Long> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    long median = median(millis);
    long p90 = sorted.get(sorted.size() * 9 / 10);
    System.out.printf(
        "%s under the flood: median %d ms, p90 %d ms, longest %d ms%n",
        path, median, p90, sorted.get(sorted.size() - 1));
    assertThat(median).as("median ms of %s during the flood: %s", path, millis).isLessThan(100L);
  }
}
