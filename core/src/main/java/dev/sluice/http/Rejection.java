package dev.sluice.http;

import dev.sluice.core.Decision;
import dev.sluice.core.Responses;
import dev.sluice.core.Rule;
import dev.sluice.core.RuleResponse;
import java.io.IOException;

/**
 * The status and body of a denied request: the deciding rule's own body if it gives one, else the
 * file's {@code response.body} format, with the rule named as clients may see it. Rule names are
 * ids ([A-Za-z0-9_.-]) or hex digits, so the generated JSON needs no escaping.
 */
final class Rejection {
  static final String JSON = "application/json";
  static final String PROBLEM_JSON = "application/problem+json";

  private Rejection() {}

  static void write(Decision decision, Exchange exchange) throws IOException {
    Rule rule = decision.rule();
    RuleResponse own = rule.response();
    if (own.body() != null) {
      exchange.respond(own.status(), own.contentType(), own.body());
      return;
    }
    Responses responses = decision.rules().responses();
    String name = responses.nameOf(rule);
    long wait = decision.retryAfterSeconds();
    if (responses.body() == Responses.Body.PROBLEM_JSON) {
      exchange.respond(own.status(), PROBLEM_JSON, problem(own.status(), name, wait));
    } else {
      exchange.respond(own.status(), JSON, json(name, wait));
    }
  }

  /** {@code {"error":"rate_limited","rule":"login","retryAfterSeconds":12}}. */
  static String json(String rule, long retryAfterSeconds) {
    return "{\"error\":\"rate_limited\",\"rule\":\""
        + rule
        + "\",\"retryAfterSeconds\":"
        + retryAfterSeconds
        + "}";
  }

  /**
   * An RFC 9457 problem of type {@code about:blank}, whose title is then the status's own phrase
   * (left out for a status without a registered one), with the rule and the wait as extension
   * members.
   */
  static String problem(int status, String rule, long retryAfterSeconds) {
    String title = StatusTitles.of(status);
    return "{\"type\":\"about:blank\","
        + (title == null ? "" : "\"title\":\"" + title + "\",")
        + "\"status\":"
        + status
        + ",\"detail\":\"Rule "
        + rule
        + " allows no more requests now; retry after "
        + retryAfterSeconds
        + (retryAfterSeconds == 1 ? " second." : " seconds.")
        + "\",\"rule\":\""
        + rule
        + "\",\"retryAfterSeconds\":"
        + retryAfterSeconds
        + "}";
  }
}
