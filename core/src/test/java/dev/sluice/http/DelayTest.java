package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Explanation;
import dev.sluice.core.Limiter;
import dev.sluice.core.TestRequest;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RuleStats;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Requests held until their slot (a rule's {@code delay}), with an injected clock and sleeper. */
class DelayTest {
  private static final long MS = 1_000;

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final List<Long> waits = new ArrayList<>();
  private WaitingRoom.Sleeper sleeper = waits::add;

  private final Metrics metrics = new Metrics(clock::micros);
  private Limiter limiter;

  private Enforcer enforcer(String top, String delay) throws Exception {
    limiter = new Limiter(new MemoryStore(clock, 100, 0), metrics);
    limiter.apply(
        ConfigParser.parse(
                "test.yaml",
                top
                    + "rules:\n  - { id: pay, match: { path: /pay }, key: ip, limit: 5, window: 1s,"
                    + " algorithm: token_bucket, delay: "
                    + delay
                    + " }\n")
            .rules());
    return new Enforcer(limiter, Admin.NONE, clock, micros -> sleeper.sleep(micros));
  }

  private static FakeExchange pay() {
    return new FakeExchange(TestRequest.post("/pay"));
  }

  /**
   * The scenario: 20 at once at 5/s with max_wait 2s. The served ones wait for slots 200 ms
   * apart in arrival order, up to 2 s; the rest get a 429 at once, without waiting.
   */
  @Test
  void aBurstOf20At5PerSecondIsSpacedUpToMaxWaitAndTheRestDeniedAtOnce() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    List<Integer> statuses = new ArrayList<>();
    List<String> retryAfters = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      FakeExchange exchange = pay();
      boolean served = enforcer.admit(exchange);
      statuses.add(served ? 200 : exchange.status);
      if (!served) {
        retryAfters.add(exchange.headers.get("Retry-After"));
      }
    }
    List<Long> slots = new ArrayList<>();
    for (long wait = 200 * MS; wait <= 2 * SECOND; wait += 200 * MS) {
      slots.add(wait);
    }
    assertThat(waits).as("the first passes at once, then one per 200 ms").isEqualTo(slots);
    assertThat(statuses.subList(0, 11)).containsOnly(200);
    assertThat(statuses.subList(11, 20)).containsOnly(429);
    assertThat(retryAfters).hasSize(9).containsOnly("1");
  }

  @Test
  void aRuleWithoutDelayNeverWaits() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 100, 0));
    limiter.apply(
        ConfigParser.parse(
                "test.yaml",
                "rules:\n  - { id: pay, match: { path: /pay }, key: ip, limit: 5, window: 1s,"
                    + " algorithm: token_bucket }\n")
            .rules());
    Enforcer enforcer = new Enforcer(limiter, Admin.NONE, clock, waits::add);
    int served = 0;
    for (int i = 0; i < 8; i++) {
      served += enforcer.admit(pay()) ? 1 : 0;
    }
    assertThat(served).isEqualTo(5);
    assertThat(waits).isEmpty();
  }

  /** While one request waits, a second finds the one place taken: 429 at once, slot given back. */
  private void oneWaitsAndTheNextIsTurnedAway(Enforcer enforcer) throws Exception {
    assertThat(enforcer.admit(pay())).isTrue(); // passes at once: no place needed
    List<FakeExchange> turnedAway = new ArrayList<>();
    sleeper =
        micros -> {
          waits.add(micros);
          sleeper = waits::add;
          FakeExchange second = pay();
          try {
            assertThat(enforcer.admit(second)).isFalse();
          } catch (java.io.IOException e) {
            throw new AssertionError(e);
          }
          turnedAway.add(second);
        };
    assertThat(enforcer.admit(pay())).isTrue();
    assertThat(turnedAway).hasSize(1);
    assertThat(turnedAway.get(0).status).isEqualTo(429);
    assertThat(turnedAway.get(0).headers).containsEntry("Retry-After", "1");
    assertThat(enforcer.admit(pay())).isTrue();
    assertThat(waits)
        .as("the turned-away request's slot (600 ms) was given back: the next one has 400 ms")
        .containsExactly(200 * MS, 400 * MS);
  }

  @Test
  void aRuleLetsAtMostMaxWaitingWaitAtOnce() throws Exception {
    oneWaitsAndTheNextIsTurnedAway(enforcer("", "{ max_wait: 2s, max_waiting: 1 }"));
  }

  @Test
  void allRulesTogetherLetAtMostTheFilesMaxWaitingWaitAtOnce() throws Exception {
    oneWaitsAndTheNextIsTurnedAway(enforcer("max_waiting: 1\n", "{ max_wait: 2s }"));
  }

  @Test
  void anInterruptedWaitIsDeniedAndGivesItsSlotBack() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    assertThat(enforcer.admit(pay())).isTrue();
    sleeper =
        micros -> {
          sleeper = waits::add;
          throw new InterruptedException();
        };
    FakeExchange interrupted = pay();
    assertThat(enforcer.admit(interrupted)).isFalse();
    assertThat(Thread.interrupted()).as("the interrupt is kept for the container").isTrue();
    assertThat(interrupted.status).isEqualTo(429);
    assertThat(enforcer.admit(pay())).isTrue();
    assertThat(waits).as("the interrupted request's slot was given back").containsExactly(200 * MS);
  }

  /** By counters, not by the rules object: a reload that keeps the rule keeps what it refunds. */
  @Test
  void aSlotIsGivenBackAfterAReloadThatKeepsItsRule() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    assertThat(enforcer.admit(pay())).isTrue();
    dev.sluice.core.Rules reloaded =
        ConfigParser.parse(
                "test.yaml",
                "rules:\n  - { id: pay, match: { path: /pay }, key: ip, limit: 5, window: 1s,"
                    + " algorithm: token_bucket, delay: { max_wait: 2s } }\n"
                    + "  - { id: other, match: { path: /other }, key: ip, limit: 5, window: 1s }\n")
            .rules();
    sleeper =
        micros -> {
          sleeper = waits::add;
          limiter.apply(reloaded);
          throw new InterruptedException();
        };
    assertThat(enforcer.admit(pay())).isFalse();
    assertThat(Thread.interrupted()).isTrue();
    assertThat(enforcer.admit(pay())).isTrue();
    assertThat(waits).as("the interrupted request's slot was given back").containsExactly(200 * MS);
    assertThat(metrics.rule("pay").denied()).as("counted as the rule's denial").isEqualTo(1);
  }

  @Test
  void immediateLetsTheFirstExcessRequestsPassAtOnce() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 1s, immediate: 2 }");
    for (int i = 0; i < 5; i++) {
      assertThat(enforcer.admit(pay())).isTrue();
    }
    assertThat(waits).containsExactly(200 * MS, 400 * MS);
  }

  @Test
  void aWaitIsForItsSlotAsTheClockMoves() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    for (int i = 0; i < 11; i++) {
      enforcer.admit(pay());
    }
    clock.advance(500 * MS);
    assertThat(enforcer.admit(pay())).as("the slot at 2.2 s is 1.7 s away").isTrue();
    assertThat(waits.get(waits.size() - 1)).isEqualTo(1_700 * MS);
  }

  @Test
  void metricsCountTheDelayedAndTheirWaitAndTurnedAwayAsDenied() throws Exception {
    oneWaitsAndTheNextIsTurnedAway(enforcer("", "{ max_wait: 2s, max_waiting: 1 }"));
    RuleStats pay = metrics.rules().get(0);
    assertThat(pay.allowed()).as("three served").isEqualTo(3);
    assertThat(pay.denied()).as("one turned away").isEqualTo(1);
    assertThat(pay.delayed()).isEqualTo(2);
    assertThat(pay.delayMicros()).isEqualTo(600 * MS);
    assertThat(metrics.prometheusText())
        .contains("sluice_rule_delayed_total{rule=\"pay\"} 2\n")
        .contains("sluice_rule_delay_seconds_total{rule=\"pay\"} 0.6\n");
  }

  @Test
  void explainSaysHowLongARequestWouldWait() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    enforcer.admit(pay());
    enforcer.admit(pay());
    Explanation.Entry entry = limiter.explain(TestRequest.post("/pay")).entries().get(0);
    assertThat(entry.delays()).isTrue();
    assertThat(entry.allowed()).isTrue();
    assertThat(entry.waitMicros()).isEqualTo(400 * MS);
  }

  @Test
  void aDelayedResponseSaysHowLongItWaitedInEitherHeaderStyle() throws Exception {
    for (String style : new String[] {"", "response: { headers: ietf }\n"}) {
      Enforcer enforcer = enforcer(style, "{ max_wait: 200ms }");
      FakeExchange prompt = pay();
      FakeExchange delayed = pay();
      FakeExchange denied = pay();
      enforcer.admit(prompt);
      enforcer.admit(delayed);
      assertThat(enforcer.admit(denied)).isFalse();
      assertThat(prompt.headers).as("%s", style).doesNotContainKey(RateLimitHeaders.DELAY);
      assertThat(delayed.headers).as("%s", style).containsEntry(RateLimitHeaders.DELAY, "200");
      assertThat(denied.headers).as("%s", style).doesNotContainKey(RateLimitHeaders.DELAY);
      clock.advance(SECOND);
    }
  }

  /**
   * At 5/s with max_wait 2s, the bucket after one request holds ten places in the queue and none
   * that pass at once: Remaining never says more than Limit, the queue has a field of its own.
   */
  @Test
  void remainingCountsWhatPassesAtOnceAndTheQueueItsPlacesInAFieldOfItsOwn() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    FakeExchange first = pay();
    enforcer.admit(first);
    assertThat(first.headers)
        .containsEntry("X-RateLimit-Limit", "5")
        .containsEntry("X-RateLimit-Remaining", "0")
        .containsEntry(RateLimitHeaders.QUEUE, "10");
    clock.advance(3 * SECOND);

    enforcer = enforcer("", "{ max_wait: 2s, immediate: 7 }");
    FakeExchange roomy = pay();
    enforcer.admit(roomy);
    assertThat(roomy.headers)
        .as("seven more would pass at once, but Remaining says no more than Limit")
        .containsEntry("X-RateLimit-Limit", "5")
        .containsEntry("X-RateLimit-Remaining", "5")
        .containsEntry(RateLimitHeaders.QUEUE, "10");

    Enforcer ietf = enforcer("response: { headers: ietf }\n", "{ max_wait: 2s }");
    FakeExchange drafted = pay();
    ietf.admit(drafted);
    assertThat(drafted.headers.get("RateLimit")).contains(";r=0;");
    assertThat(drafted.headers).containsEntry(RateLimitHeaders.QUEUE, "10");
  }

  /** The gauge of requests waiting now, read while a request waits and after it stopped. */
  private List<String> waitingWhileAndAfter(Enforcer enforcer, WaitingRoom.Sleeper during)
      throws Exception {
    List<String> seen = new ArrayList<>();
    sleeper =
        micros -> {
          sleeper = waits::add;
          seen.add(waitingNow());
          during.sleep(micros);
        };
    enforcer.admit(pay());
    seen.add(waitingNow());
    return seen;
  }

  private String waitingNow() {
    RuleStats pay = metrics.rule("pay");
    String text = metrics.prometheusText();
    String sample = "sluice_rule_waiting{rule=\"pay\"} ";
    int at = text.indexOf(sample);
    return pay.waiting()
        + " "
        + (at < 0 ? "none" : text.substring(at + sample.length(), text.indexOf('\n', at)));
  }

  @Test
  void theWaitingGaugeCountsARequestWhileItWaits() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    assertThat(waitingNow()).isEqualTo("0 0");
    enforcer.admit(pay());
    assertThat(waitingWhileAndAfter(enforcer, micros -> {})).containsExactly("1 1", "0 0");
    assertThat(
            waitingWhileAndAfter(
                enforcer,
                micros -> {
                  throw new InterruptedException();
                }))
        .as("interrupted")
        .containsExactly("1 1", "0 0");
    assertThat(Thread.interrupted()).isTrue();
  }

  /** A reload that keeps the rule while its request waits: the gauge still goes back to 0. */
  @Test
  void theWaitingGaugeGoesBackToZeroWhenTheRulesAreReloadedDuringTheWait() throws Exception {
    Enforcer enforcer = enforcer("", "{ max_wait: 2s }");
    enforcer.admit(pay());
    dev.sluice.core.Rules reloaded =
        ConfigParser.parse(
                "test.yaml",
                "rules:\n  - { id: pay, match: { path: /pay }, key: ip, limit: 4, window: 1s,"
                    + " algorithm: token_bucket, delay: { max_wait: 2s } }\n")
            .rules();
    assertThat(waitingWhileAndAfter(enforcer, micros -> limiter.apply(reloaded)))
        .containsExactly("1 1", "0 0");
    assertThat(metrics.rule("pay").delayed()).as("counted, reload or not").isEqualTo(1);
  }
}
