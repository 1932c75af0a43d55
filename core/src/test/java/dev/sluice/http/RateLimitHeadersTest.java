package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import dev.sluice.support.ShortHash;
import org.junit.jupiter.api.Test;

/**
 * The X-RateLimit-* style: what Reset says, in seconds or as a Unix time, and which rule the
 * headers describe.
 */
class RateLimitHeadersTest {
  /** The quick start's two rules on /api/**: a key's quota with a pro tier, and an IP backstop. */
  private static final String QUICK_START =
      "api_key_header: X-API-Key\n"
          + "rules:\n"
          + "  - { id: api, match: { path: /api/** }, key: api_key | ip, limit: 1000, window: 1m,"
          + " tiers: { pro: 10000 } }\n"
          + "  - { id: api-per-ip, match: { path: /api/** }, key: ip, limit: 300, window: 1s }\n"
          + "tiers: { api_keys: { pro: [key-1] } }\n";
  private static final String BUCKET =
      "rules:\n  - { id: bucket, match: { path: /b }, key: ip, limit: 4, window: 20s,"
          + " algorithm: token_bucket }\n";

  @Test
  void resetIsWhenTheQuotaIsFullyBackAndNeverBeforeRetryAfter() throws Exception {
    Responding responding = new Responding(BUCKET);
    for (int i = 0; i < 4; i++) {
      responding.get("/b");
    }
    FakeExchange denied = responding.get("/b");
    assertThat(denied.headers)
        .containsEntry("Retry-After", "5")
        .as("the bucket of four is full again after four tokens of 5s")
        .containsEntry("X-RateLimit-Reset", "20")
        .containsEntry("X-RateLimit-Remaining", "0")
        .containsEntry("X-RateLimit-Limit", "4");
  }

  @Test
  void epochSecondsAreTheUnixTimeOfTheResetNeverBeforeTheRetry() throws Exception {
    Responding responding = new Responding("response: { reset: epoch_seconds }\n" + BUCKET);
    responding.clock.advance(SECOND / 4);
    long now = Responding.START / SECOND; // 0.25s past this second
    assertThat(responding.get("/b").headers)
        .as("one token, back 5s from now; counted from the next whole second")
        .containsEntry("X-RateLimit-Reset", Long.toString(now + 1 + 5));
    for (int i = 0; i < 3; i++) {
      responding.get("/b");
    }
    FakeExchange denied = responding.get("/b");
    long reset = Long.parseLong(denied.headers.get("X-RateLimit-Reset"));
    long retryAfter = Long.parseLong(denied.headers.get("Retry-After"));
    assertThat(reset).isEqualTo(now + 1 + 20);
    assertThat(reset * SECOND)
        .as("even counted from the end of this second")
        .isGreaterThanOrEqualTo((now + 1) * SECOND + retryAfter * SECOND);
  }

  @Test
  void theHeadersNameTheRuleTheyDescribeWhenSeveralCountTheRequest() throws Exception {
    Responding responding = new Responding(QUICK_START);
    FakeExchange pro = responding.send(TestRequest.get("/api/hello").header("X-API-Key", "key-1"));
    assertThat(pro.headers)
        .as("the backstop has fewer left than the pro key's 10,000: it is the one described")
        .containsEntry("X-RateLimit-Limit", "300")
        .containsEntry("X-RateLimit-Rule", "api-per-ip");
    for (int i = 0; i < 300; i++) {
      responding.send(TestRequest.get("/api/hello").from("10.0.0.2"));
    }
    FakeExchange denied = responding.send(TestRequest.get("/api/hello").from("10.0.0.2"));
    assertThat(denied.status).isEqualTo(429);
    assertThat(denied.headers).containsEntry("X-RateLimit-Rule", "api-per-ip");
  }

  @Test
  void aHiddenRuleIsNamedByItsStandInOnly() throws Exception {
    Responding responding = new Responding("response: { hide_rule_ids: true }\n" + QUICK_START);
    FakeExchange pro = responding.send(TestRequest.get("/api/hello").header("X-API-Key", "key-1"));
    assertThat(pro.headers).containsEntry("X-RateLimit-Rule", ShortHash.of("api-per-ip"));
    assertThat(pro.headers.values()).noneMatch(value -> value.contains("api"));
  }
}
