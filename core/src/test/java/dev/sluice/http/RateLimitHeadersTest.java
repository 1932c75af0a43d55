package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The X-RateLimit-* style: what Reset says, in seconds or as a Unix time. */
class RateLimitHeadersTest {
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
}
