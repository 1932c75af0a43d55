package dev.sluice.it;

import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertSentWhole;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * A rule's own rejection, for the Filter and the agent alike: its status and its body, whose
 * characters outside ASCII make its length in bytes differ from its length in characters, so a
 * Content-Length counted in characters would cut it short.
 */
public final class OwnBodyChecks {
  static final String BODY = "Trop de requêtes — réessayez plus tard.";

  /** A rule line for the config under test: 1 request per client on /own-body, then a 503. */
  public static final String RULE =
      "  - { id: own-body, match: { path: /own-body }, key: ip, limit: 1, window: 1h,\n"
          + "      response: { status: 503, body: \""
          + BODY
          + "\", content_type: text/plain } }\n";

  private OwnBodyChecks() {}

  public static void assertTheRulesOwnRejection(Http http, String client) throws Exception {
    assertThat(http.get("/own-body", client).statusCode()).isEqualTo(200);
    HttpResponse<String> denied = http.get("/own-body", client);
    assertThat(denied.statusCode()).isEqualTo(503);
    assertThat(denied.body()).isEqualTo(BODY);
    assertThat(BODY.getBytes(StandardCharsets.UTF_8).length).isGreaterThan(BODY.length());
    assertSentWhole(denied);
    assertThat(denied.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWithIgnoringCase("text/plain"));
    assertThat(number(denied, RETRY_AFTER)).isBetween(1L, 3600L);
  }
}
