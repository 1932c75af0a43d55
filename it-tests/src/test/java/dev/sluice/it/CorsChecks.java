package dev.sluice.it;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

/**
 * The CORS checks, for the Filter and the agent alike, on the {@code hello} rule (3 per client on
 * /api/hello, any method) of a config with {@link #SECTION}: a browser's preflights pass uncounted,
 * and the 429 the limit ends in carries the headers a page from the listed origin needs to read it;
 * another origin's 429 carries none.
 */
public final class CorsChecks {
  public static final String ORIGIN = "https://app.example.com";

  /** The {@code cors} section of the config under test. */
  public static final String SECTION = "cors: { allowed_origins: [" + ORIGIN + "] }\n";

  private CorsChecks() {}

  public static void assertPreflightsUncountedAndA429Readable(Http http, String client)
      throws Exception {
    for (int i = 1; i <= 4; i++) {
      HttpResponse<String> preflight =
          http.send(
              "OPTIONS",
              "/api/hello",
              client,
              "Origin",
              ORIGIN,
              "Access-Control-Request-Method",
              "GET");
      assertThat(preflight.statusCode()).as("preflight %d, answered by the app", i).isEqualTo(200);
      assertThat(preflight.headers().firstValue(LIMIT)).as("preflight %d counted", i).isEmpty();
    }
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = http.get("/api/hello", client, "Origin", ORIGIN);
      assertThat(allowed.statusCode()).isEqualTo(200);
      assertThat(number(allowed, REMAINING)).as("permits left after GET %d", i).isEqualTo(3 - i);
    }
    HttpResponse<String> denied = http.get("/api/hello", client, "Origin", ORIGIN);
    assertRejected(denied, "hello");
    assertThat(denied.headers().firstValue("Access-Control-Allow-Origin")).hasValue(ORIGIN);
    assertThat(denied.headers().firstValue("Access-Control-Expose-Headers"))
        .hasValue(
            "Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset,"
                + " X-RateLimit-Rule");
    HttpResponse<String> elsewhere = http.get("/api/hello", client, "Origin", "https://x.example");
    assertRejected(elsewhere, "hello");
    assertThat(elsewhere.headers().firstValue("Access-Control-Allow-Origin"))
        .as("an origin the config does not list")
        .isEmpty();
  }
}
