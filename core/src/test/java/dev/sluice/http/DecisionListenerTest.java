package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the Enforcer tells its listener: each final decision, with the outcome and its rule. */
class DecisionListenerTest {
  private static final String RULES =
      "rules:\n"
          + "  - { id: hello, match: { path: /hello }, key: ip, limit: 2, window: 10s,"
          + " algorithm: fixed_window }\n"
          + "  - { id: trial, match: { path: /hello }, key: ip, limit: 1, window: 10s,"
          + " algorithm: fixed_window, shadow: true }\n"
          + "  - { id: pay, match: { path: /pay }, key: ip, limit: 1, window: 1s,"
          + " algorithm: token_bucket, delay: { max_wait: 2s } }\n";

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final List<String> told = new ArrayList<>();

  private Enforcer enforcer(DecisionListener listener) throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 10, 0));
    limiter.apply(ConfigParser.parse("test.yaml", RULES).rules());
    return new Enforcer(limiter, Admin.NONE, clock, micros -> {}, listener);
  }

  private void record(dev.sluice.core.Decision decision) {
    Outcome outcome = Outcome.of(decision);
    told.add(
        Outcome.ruleId(decision, outcome)
            + " "
            + outcome.tag()
            + " "
            + decision.remaining()
            + (decision.queueRemaining() < 0 ? "" : " queue " + decision.queueRemaining()));
  }

  @Test
  void eachDecisionIsToldWithItsOutcomeAndTheRuleItIsAbout() throws Exception {
    Enforcer enforcer = enforcer(this::record);
    for (int i = 0; i < 3; i++) {
      enforcer.admit(new FakeExchange(TestRequest.get("/hello")));
    }
    enforcer.admit(new FakeExchange(TestRequest.get("/unlimited")));
    enforcer.admit(new FakeExchange(TestRequest.post("/pay")));
    enforcer.admit(new FakeExchange(TestRequest.post("/pay")));
    assertThat(told)
        .containsExactly(
            "trial allowed 0",
            "trial shadow_denied 0",
            "hello denied 0",
            "pay allowed 0 queue 2",
            "pay delayed 0 queue 1");
  }

  @Test
  void aListenerThatFailsCostsNothingButALogLine() throws Exception {
    Enforcer enforcer =
        enforcer(
            decision -> {
              throw new IllegalStateException("broken listener");
            });
    try (LogCapture log = LogCapture.of("dev.sluice.http")) {
      FakeExchange exchange = new FakeExchange(TestRequest.get("/hello"));
      assertThat(enforcer.admit(exchange)).isTrue();
      assertThat(exchange.headers).containsEntry("X-RateLimit-Limit", "1");
      assertThat(log.messages()).anyMatch(m -> m.contains("decision listener"));
    }
  }
}
