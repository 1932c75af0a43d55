package dev.sluice.http;

import dev.sluice.algo.Verdict;
import dev.sluice.core.Decision;
import dev.sluice.core.Responses;
import dev.sluice.core.Rule;
import dev.sluice.store.Permit;
import java.util.List;

/**
 * The fields of draft-ietf-httpapi-ratelimit-headers-10, with one item for every rule that counted
 * the request, in the order of the file: {@code RateLimit-Policy: "login";q=5;w=60} (quota and
 * window, in seconds rounded up) and {@code RateLimit: "login";r=0;t=12} (permits left, and seconds
 * until more are available).
 *
 * <p>{@code t} is the time until the rule's quota is fully restored, when more of it is surely
 * back; for a rule that denied the request, the time until that rule admits it again. So the {@code
 * Retry-After} of a 429, the longest wait of the rules that denied it, is never earlier than their
 * {@code t}, as the draft asks. Names are rule ids, or stand-ins when ids are hidden.
 */
final class IetfHeaders {
  static final String POLICY = "RateLimit-Policy";
  static final String RATE_LIMIT = "RateLimit";

  private IetfHeaders() {}

  static void write(Decision decision, Exchange exchange) {
    Responses responses = decision.rules().responses();
    List<Rule> rules = decision.rules().rules();
    StringBuilder policies = new StringBuilder(32);
    StringBuilder limits = new StringBuilder(32);
    for (int i = 0; i < rules.size(); i++) {
      Permit permit = decision.permit(i);
      if (permit == null) {
        continue;
      }
      if (policies.length() > 0) {
        policies.append(", ");
        limits.append(", ");
      }
      String name = responses.nameOf(rules.get(i));
      StructuredFields.string(policies, name);
      StructuredFields.parameter(policies, "q", permit.quota().limit());
      StructuredFields.parameter(policies, "w", Decision.seconds(permit.quota().windowMicros()));
      Verdict verdict = permit.verdict();
      StructuredFields.string(limits, name);
      StructuredFields.parameter(limits, "r", decision.remaining(i));
      long micros = decision.deniedBy(i) ? verdict.retryAfterMicros() : verdict.resetMicros();
      StructuredFields.parameter(limits, "t", Decision.seconds(micros));
    }
    exchange.setHeader(POLICY, policies.toString());
    exchange.setHeader(RATE_LIMIT, limits.toString());
  }
}
