package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client that hangs up while its delayed request waits, for the Filter and the agent alike, on
 * the {@code slow} rule of {@link #RULE} (one slot a second per client, max_wait 3s) with {@link
 * AdminChecks#SECTION}. A servlet cannot tell that the client is gone before it writes, so the
 * request keeps its slot and is served at it, as docs/configuration.md says: the next request waits
 * for the slot after it, the rate over the window holds, and once its slot has passed nothing of it
 * is left waiting.
 */
public final class HangUpChecks {
  public static final String RULE =
      "  - { id: slow, match: { path: /delay/slow }, key: ip, limit: 1, window: 1s,"
          + " algorithm: token_bucket, delay: { max_wait: 3s } }\n";

  /** What only a test beside the container can look at, in its own JVM. */
  public interface ServerSide {
    ServerSide NONE =
        new ServerSide() {
          @Override
          public void whileWaiting() {}

          @Override
          public void afterwards() {}
        };

    /** The hanging-up request waits for its slot now, and only it. */
    void whileWaiting() throws Exception;

    /** The request after it was answered: the hung-up one's slot passed a second before. */
    void afterwards() throws Exception;
  }

  private HangUpChecks() {}

  public static void assertAHungUpRequestKeepsItsSlotAndLeavesNothingWaiting(
      Http http, String client, ServerSide server) throws Exception {
    assertThat(http.get("/delay/slow", "10.255.1.0").statusCode()).isEqualTo(200); // warm path
    HttpResponse<String> first = http.get("/delay/slow", client);
    long firstAnswered = System.nanoTime();
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.headers().firstValue(Http.DELAY)).as("the first passes at once").isEmpty();

    URI uri = URI.create(http.url("/"));
    try (Socket hangingUp = new Socket(uri.getHost(), uri.getPort())) {
      OutputStream out = hangingUp.getOutputStream();
      out.write(
          ("GET /delay/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: " + client + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      awaitWaiting(http, 1);
      assertThat(AdminChecks.operator(http, "/_sluice/status").body())
          .containsPattern("\"id\":\"slow\"[^}]*\"waiting\":1");
      server.whileWaiting();
    } // hung up, about a second before its slot

    long thirdSent = System.nanoTime();
    HttpResponse<String> third = http.get("/delay/slow", client);
    assertThat(third.statusCode()).isEqualTo(200);
    long waited = Http.number(third, Http.DELAY);
    // Had the hung-up request's slot been given back, the third would have had it: one second
    // after the first's, so less than this.
    long sinceFirst = (thirdSent - firstAnswered) / 1_000_000;
    // Past a second, the slot given back would be due already: the comparison below would prove
    // nothing (a slow machine, a long pause), so the test says so rather than pass on a negative.
    assertThat(sinceFirst).as("ms from the first answer to the third request").isLessThan(1_000L);
    long ifGivenBack = 1_000 - sinceFirst;
    System.out.printf(
        "hang-up: the next request waited %d ms (%d ms had its slot been given back)%n",
        waited, ifGivenBack);
    assertThat(waited).as("the slot after the hung-up one's").isGreaterThan(ifGivenBack);
    assertThat(waited).isLessThanOrEqualTo(2_000L);
    assertThat(waitingNow(http)).as("nothing left waiting").isZero();
    assertThat(AdminChecks.operator(http, "/_sluice/status").body())
        .as("the hung-up request was served at its slot, as the next one")
        .containsPattern("\"id\":\"slow\"[^}]*\"delayed\":2,[^}]*\"waiting\":0");
    server.afterwards();
  }

  /** Polls the metrics (bounded) until {@code count} requests of the rule wait. */
  private static void awaitWaiting(Http http, long count) throws Exception {
    long deadline = System.nanoTime() + 3_000_000_000L;
    long now = waitingNow(http);
    while (now != count && System.nanoTime() < deadline) {
      Thread.sleep(10);
      now = waitingNow(http);
    }
    assertThat(now).as("requests of the slow rule waiting").isEqualTo(count);
  }

  private static long waitingNow(Http http) throws Exception {
    String metrics = AdminChecks.operator(http, "/_sluice/metrics").body();
    Matcher m = Pattern.compile("sluice_rule_waiting\\{rule=\"slow\"} (\\d+)").matcher(metrics);
    assertThat(m.find()).as("the waiting gauge of the slow rule").isTrue();
    return Long.parseLong(m.group(1));
  }
}
