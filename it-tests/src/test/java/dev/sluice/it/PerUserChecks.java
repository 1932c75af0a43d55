package dev.sluice.it;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A per-user limit in an application that logs its users in itself, for the Filter and the agent
 * alike: {@code GET /api/me} answers {@code hello <user>} to alice and bob, logged in by HTTP Basic
 * (password: the user name and {@code -password}), and {@code /count} tells how often it did.
 */
public final class PerUserChecks {
  /** A rule line for the config under test: 2 requests per user on /api/me. */
  public static final String RULE =
      "  - { id: per-user, match: { path: /api/me }, key: user | ip, limit: 2, window: 1h,\n"
          + "      algorithm: fixed_window }\n";

  private PerUserChecks() {}

  /** Alice denied after 2 without reaching the app, and bob, from the same address, served. */
  public static void assertEachUserHasALimitOfTheirOwn(Http http, String client) throws Exception {
    int served = http.served();
    for (int i = 1; i <= 2; i++) {
      HttpResponse<String> allowed = me(http, client, "alice");
      assertThat(allowed.statusCode()).as("alice's request %d", i).isEqualTo(200);
      assertThat(allowed.body()).isEqualTo("hello alice");
      assertThat(number(allowed, LIMIT)).isEqualTo(2);
      assertThat(number(allowed, REMAINING)).as("left after request %d", i).isEqualTo(2 - i);
    }
    assertRejected(me(http, client, "alice"), "per-user");
    assertThat(http.served() - served)
        .as("the request denied after login never reached the app")
        .isEqualTo(2);
    HttpResponse<String> bob = me(http, client, "bob");
    assertThat(bob.statusCode()).as("bob, from the same address").isEqualTo(200);
    assertThat(bob.body()).isEqualTo("hello bob");
    assertThat(number(bob, REMAINING)).isEqualTo(1);
  }

  private static HttpResponse<String> me(Http http, String client, String user) throws Exception {
    String credentials = user + ":" + user + "-password";
    return http.get(
        "/api/me",
        client,
        "Authorization",
        "Basic "
            + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
  }
}
