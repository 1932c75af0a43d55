package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.Phase;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request held by a delayed rule at entry (by IP) and by another after login (by user) has one
 * wait budget, not one per phase, and a denial after login gives back the slot it held at entry.
 * The sleeper moves the clock as a real wait would.
 */
class TwoPhaseDelayTest {
  private static final long MS = 1_000;

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final List<Long> waits = new ArrayList<>();
  private boolean waitsMoveTheClock;
  private final Enforcer enforcer;

  TwoPhaseDelayTest() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 100, 0));
    limiter.apply(
        ConfigParser.parse(
                "test.yaml",
                "rules:\n"
                    + "  - { id: by-ip, match: { path: /pay }, key: ip, limit: 5, window: 1s,"
                    + " algorithm: token_bucket, delay: { max_wait: 1s } }\n"
                    + "  - { id: by-user, match: { path: /pay }, key: user, limit: 2, window: 1s,"
                    + " algorithm: token_bucket, delay: { max_wait: 1s } }\n")
            .rules());
    enforcer =
        new Enforcer(
            limiter,
            Admin.NONE,
            clock,
            micros -> {
              waits.add(micros / MS);
              if (waitsMoveTheClock) {
                clock.advance(micros);
              }
            });
  }

  /** One request in its two phases: its status, 200 when served. */
  private int pay(String ip, String user) throws Exception {
    FakeExchange exchange = new FakeExchange(TestRequest.post("/pay").from(ip).user(user));
    boolean served =
        enforcer.admit(exchange, Phase.ENTRY) && enforcer.admit(exchange, Phase.AFTER_LOGIN);
    return served ? 200 : exchange.status;
  }

  @Test
  void aRequestWaitsOneMaxWaitInBothPhasesAndADenialGivesItsEntrySlotBack() throws Exception {
    for (int i = 1; i <= 3; i++) {
      assertThat(pay("10.0.0." + i, "u")).isEqualTo(200);
    }
    for (int i = 1; i <= 4; i++) {
      assertThat(pay("10.0.9.9", "v" + i)).isEqualTo(200);
    }
    assertThat(waits)
        .as("u's slots, then 10.0.9.9's")
        .containsExactly(500L, 1_000L, 200L, 400L, 600L);
    waits.clear();

    waitsMoveTheClock = true;
    assertThat(pay("10.0.9.9", "u"))
        .as("800 ms at entry leave 200 ms of the budget; u's slot is 700 ms away then")
        .isEqualTo(429);
    assertThat(waits).as("waited at entry only").containsExactly(800L);
    waits.clear();

    waitsMoveTheClock = false;
    assertThat(pay("10.0.9.9", "v9")).isEqualTo(200);
    assertThat(waits)
        .as("the denied request's entry slot was given back: this one's is now")
        .isEmpty();
  }
}
