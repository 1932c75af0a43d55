package dev.sluice.core;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The documented sample file, {@code ratelimit.yaml} at the root, does what its comments say. */
class SampleRulesTest {
  private static final Path SAMPLE = Path.of("..", "ratelimit.yaml");
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final Limiter limiter = new Limiter(new MemoryStore(clock, 10_000, 0));

  @BeforeEach
  void applyTheSample() throws Exception {
    String yaml = new String(Files.readAllBytes(SAMPLE), StandardCharsets.UTF_8);
    limiter.apply(
        ConfigParser.parse("ratelimit.yaml", yaml, Map.of("SLUICE_ADMIN_TOKEN", "a-token-of-24-characters")).rules());
  }

  /** Requests of one client, spread evenly over {@code seconds}; how many were allowed. */
  private int admitted(TestRequest request, int requests, int seconds) {
    return admitted(request, requests, seconds, Phase.ALL);
  }

  /** As {@link #admitted(TestRequest, int, int)}, decided by the rules of {@code phase}. */
  private int admitted(TestRequest request, int requests, int seconds, Phase phase) {
    int allowed = 0;
    for (int i = 0; i < requests; i++) {
      clock.advance(seconds * SECOND / requests);
      allowed += limiter.decide(request, phase).allowed() ? 1 : 0;
    }
    return allowed;
  }

  @Test
  void eachSignedInUserIsHeldToTheirOwnLimitOnceLoggedIn() {
    TestRequest alice = TestRequest.get("/api/hello").from("203.0.113.10").user("alice");
    TestRequest bob = TestRequest.get("/api/hello").from("203.0.113.10").user("bob");
    assertThat(admitted(alice, 1_000, 60, Phase.AFTER_LOGIN)).isEqualTo(600);
    assertThat(limiter.decide(bob, Phase.AFTER_LOGIN).allowed()).as("bob, same address").isTrue();
    assertThat(limiter.decide(alice, Phase.AFTER_LOGIN).ruleId()).isEqualTo("per-user");
  }

  @Test
  void theUserRuleIsLeftToTheDecisionAfterLogin() {
    TestRequest alice = TestRequest.get("/api/hello").from("203.0.113.11").user("alice");
    assertThat(admitted(alice, 1_000, 60, Phase.ENTRY)).isEqualTo(1_000);
    assertThat(limiter.decide(alice, Phase.ENTRY).ruleId()).isEqualTo("api");
  }

  @Test
  void aProKeyBehindOneIpIsHeldToItsTierNotToThePerIpLimit() {
    TestRequest pro =
        TestRequest.get("/api/hello").from("203.0.113.7").header("X-API-Key", "key-1");
    assertThat(admitted(pro, 5_000, 60)).isEqualTo(5_000);
  }

  @Test
  void withoutAKeyTheClientIpIsCountedByTheRulesLimit() {
    TestRequest anonymous = TestRequest.get("/api/hello").from("203.0.113.8");
    assertThat(admitted(anonymous, 2_000, 60)).isEqualTo(1_000);
  }

  @Test
  void madeUpKeysAreHeldByThePerIpBackstop() {
    int allowed = 0;
    for (int i = 0; i < 1_000; i++) {
      TestRequest forged =
          TestRequest.get("/api/hello").from("203.0.113.9").header("X-API-Key", "made-up-" + i);
      allowed += limiter.decide(forged).allowed() ? 1 : 0;
    }
    assertThat(allowed).isEqualTo(300);
  }
}
