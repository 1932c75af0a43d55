package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.Phase;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import org.junit.jupiter.api.Test;

/**
 * A rule keyed by the user decided once the application's login has run, every other rule as the
 * request enters: the way an application that logs its users in itself is limited per user.
 */
class AfterLoginTest {
  private static final String RULES =
      """
      rules:
        - { id: api, match: { path: "/api/**" }, key: ip, limit: 10, window: 1m,
            algorithm: fixed_window }
        - { id: per-user, match: { path: "/api/**" }, key: user | ip, limit: 2, window: 1m,
            algorithm: fixed_window }
      """;

  private final Enforcer enforcer;

  AfterLoginTest() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(new ManualClock(1_800_000_000L * SECOND), 10, 0));
    limiter.apply(ConfigParser.parse("test.yaml", RULES).rules());
    enforcer = new Enforcer(limiter);
  }

  /** One request: no user as it enters, {@code user} once the application logged it in. */
  private FakeExchange request(String user) throws Exception {
    TestRequest request = TestRequest.get("/api/orders").from("203.0.113.9");
    FakeExchange exchange = new FakeExchange(request);
    assertThat(enforcer.admit(exchange, Phase.ENTRY)).as("at entry").isTrue();
    request.user(user);
    exchange.headers.put("Served", String.valueOf(enforcer.admit(exchange, Phase.AFTER_LOGIN)));
    return exchange;
  }

  @Test
  void eachUserFromOneAddressHasALimitOfItsOwn() throws Exception {
    assertThat(request("alice").headers).containsEntry("Served", "true");
    FakeExchange second = request("alice");
    assertThat(second.headers)
        .containsEntry("Served", "true")
        .containsEntry("X-RateLimit-Limit", "2")
        .containsEntry("X-RateLimit-Remaining", "0");
    FakeExchange third = request("alice");
    assertThat(third.headers).containsEntry("Served", "false");
    assertThat(third.status).isEqualTo(429);
    assertThat(third.body).contains("\"rule\":\"per-user\"");
    assertThat(request("bob").headers).containsEntry("Served", "true");
  }

  @Test
  void atEntryTheUserRuleIsNotDecidedEvenWhenTheUserIsKnownThen() throws Exception {
    for (int i = 1; i <= 3; i++) {
      TestRequest request = TestRequest.get("/api/orders").from("203.0.113.9").user("alice");
      FakeExchange exchange = new FakeExchange(request);
      assertThat(enforcer.admit(exchange, Phase.ENTRY)).as("request %d", i).isTrue();
      assertThat(exchange.headers).containsEntry("X-RateLimit-Limit", "10");
    }
  }

  @Test
  void aRequestDeniedAfterLoginKeepsWhatItTookAtEntry() throws Exception {
    request("alice");
    request("alice");
    assertThat(request("alice").status).isEqualTo(429);
    FakeExchange bob = request("bob");
    assertThat(bob.headers)
        .as("the per-user rule decides bob's headers after login")
        .containsEntry("X-RateLimit-Limit", "2");
    FakeExchange entry = new FakeExchange(TestRequest.get("/api/orders").from("203.0.113.9"));
    enforcer.admit(entry, Phase.ENTRY);
    assertThat(entry.headers)
        .as("the address counted all five requests, the denied one too")
        .containsEntry("X-RateLimit-Remaining", "5");
  }

  @Test
  void aRequestDecidedByEveryRuleIsNotCountedAgainAfterLogin() throws Exception {
    TestRequest request = TestRequest.get("/api/orders").from("203.0.113.9").user("alice");
    for (int i = 1; i <= 3; i++) {
      FakeExchange exchange = new FakeExchange(request);
      boolean served = enforcer.admit(exchange, Phase.ALL);
      boolean again = enforcer.admit(exchange, Phase.AFTER_LOGIN);
      assertThat(again).as("request %d after login", i).isTrue();
      assertThat(served).as("request %d", i).isEqualTo(i <= 2);
    }
  }

  @Test
  void withoutRulesKeyedByTheUserNothingIsDecidedOrMarkedAfterLogin() throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(new ManualClock(1_800_000_000L * SECOND), 10, 0));
    limiter.apply(
        ConfigParser.parse("test.yaml", RULES.replace("key: user | ip", "key: ip")).rules());
    Enforcer byIp = new Enforcer(limiter);
    FakeExchange exchange = new FakeExchange(TestRequest.get("/api/orders").user("alice"));
    assertThat(byIp.admit(exchange, Phase.AFTER_LOGIN)).isTrue();
    assertThat(exchange.headers).isEmpty();
    assertThat(exchange.markDecided(Exchange.DECIDED_AFTER_LOGIN_ATTRIBUTE)).isTrue();
  }
}
