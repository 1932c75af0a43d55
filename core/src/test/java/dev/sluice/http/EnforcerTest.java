package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.TestRequest;
import dev.sluice.store.BrokenStore;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Store;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnforcerTest {
  private static final String RULES =
      "rules:\n  - { id: hello, match: { path: /hello }, key: ip, limit: 1, window: 10s, "
          + "algorithm: fixed_window }\n";

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  private Enforcer enforcer(Store store) throws Exception {
    Limiter limiter = new Limiter(store);
    limiter.apply(ConfigParser.parse("test.yaml", RULES).rules());
    return new Enforcer(limiter);
  }

  @Test
  void allowedRequestsCarryTheRateLimitHeaders() throws Exception {
    FakeExchange exchange = new FakeExchange(TestRequest.get("/hello"));
    assertThat(enforcer(new MemoryStore(clock, 10, 0)).admit(exchange)).isTrue();
    assertThat(exchange.headers)
        .containsExactly(
            Map.entry("X-RateLimit-Limit", "1"),
            Map.entry("X-RateLimit-Remaining", "0"),
            Map.entry("X-RateLimit-Reset", "10"),
            Map.entry("X-RateLimit-Rule", "hello"));
    assertThat(exchange.status).isZero();
  }

  @Test
  void deniedRequestsGet429WithRetryAfterAndAJsonBody() throws Exception {
    Enforcer enforcer = enforcer(new MemoryStore(clock, 10, 0));
    enforcer.admit(new FakeExchange(TestRequest.get("/hello")));
    clock.advance(2_500_000);
    FakeExchange exchange = new FakeExchange(TestRequest.get("/hello"));
    assertThat(enforcer.admit(exchange)).isFalse();
    assertThat(exchange.status).isEqualTo(429);
    assertThat(exchange.contentType).isEqualTo("application/json");
    assertThat(exchange.body)
        .isEqualTo("{\"error\":\"rate_limited\",\"rule\":\"hello\",\"retryAfterSeconds\":8}");
    assertThat(exchange.headers)
        .containsEntry("Retry-After", "8")
        .containsEntry("X-RateLimit-Remaining", "0")
        .containsEntry("X-RateLimit-Reset", "8");
  }

  /** The one request {@code cors} allows, then a denied one from {@code origin}. */
  private FakeExchange deniedWithCors(String cors, String origin) throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 10, 0));
    limiter.apply(ConfigParser.parse("test.yaml", "cors: " + cors + "\n" + RULES).rules());
    Enforcer enforcer = new Enforcer(limiter);
    FakeExchange allowed = new FakeExchange(TestRequest.get("/hello").header("Origin", origin));
    assertThat(enforcer.admit(allowed)).isTrue();
    assertThat(allowed.headers)
        .as("allowed: the application's own CORS handling answers")
        .doesNotContainKey("Access-Control-Allow-Origin");
    FakeExchange denied = new FakeExchange(TestRequest.get("/hello").header("Origin", origin));
    assertThat(enforcer.admit(denied)).isFalse();
    return denied;
  }

  @Test
  void aDenialToAListedOriginLetsTheBrowserReadIt() throws Exception {
    FakeExchange denied =
        deniedWithCors(
            "{ allowed_origins: [https://app.example.com], allow_credentials: true }",
            "https://app.example.com");
    assertThat(denied.headers)
        .containsEntry("Access-Control-Allow-Origin", "https://app.example.com")
        .containsEntry("Access-Control-Allow-Credentials", "true")
        .containsEntry("Vary", "Origin")
        .containsEntry(
            "Access-Control-Expose-Headers",
            "Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset,"
                + " X-RateLimit-Rule")
        .containsEntry("Retry-After", "10");
  }

  @Test
  void aDenialToAnotherOriginGetsNoCorsHeaders() throws Exception {
    FakeExchange denied =
        deniedWithCors("{ allowed_origins: [https://app.example.com] }", "https://evil.example");
    assertThat(denied.status).isEqualTo(429);
    assertThat(denied.headers.keySet()).noneMatch(name -> name.startsWith("Access-Control-"));
  }

  @Test
  void anyOriginIsAnsweredWithAStarNeverWithItsName() throws Exception {
    FakeExchange denied = deniedWithCors("{ allowed_origins: \"*\" }", "https://evil.example");
    assertThat(denied.headers)
        .containsEntry("Access-Control-Allow-Origin", "*")
        .containsKey("Access-Control-Expose-Headers")
        .doesNotContainKeys("Vary", "Access-Control-Allow-Credentials");
  }

  @Test
  void aRequestIsCountedOnceHoweverOftenItIsDispatched() throws Exception {
    Enforcer enforcer = enforcer(new MemoryStore(clock, 10, 0));
    FakeExchange exchange = new FakeExchange(TestRequest.get("/hello"));
    for (int dispatch = 0; dispatch < 4; dispatch++) {
      assertThat(enforcer.admit(exchange)).isTrue();
    }
    assertThat(enforcer.admit(new FakeExchange(TestRequest.get("/hello")))).isFalse();
  }

  @Test
  void unlimitedRequestsGetNoHeaders() throws Exception {
    FakeExchange exchange = new FakeExchange(TestRequest.get("/other"));
    assertThat(enforcer(new MemoryStore(clock, 10, 0)).admit(exchange)).isTrue();
    assertThat(exchange.headers).isEmpty();
  }

  @Test
  void aCommittedResponseIsLetThroughUntouched() throws Exception {
    Enforcer enforcer = enforcer(new MemoryStore(clock, 10, 0));
    enforcer.admit(new FakeExchange(TestRequest.get("/hello")));
    FakeExchange exchange = new FakeExchange(TestRequest.get("/hello"));
    exchange.committed = true;
    assertThat(enforcer.admit(exchange)).isTrue();
    assertThat(exchange.status).isZero();
    assertThat(exchange.headers).isEmpty();
  }

  @Test
  void aFailureInsideSluiceLetsTheRequestThroughAndIsLoggedOnce() throws Exception {
    try (LogCapture log = LogCapture.of("dev.sluice.http")) {
      Enforcer enforcer = enforcer(new BrokenStore());
      for (int i = 0; i < 3; i++) {
        FakeExchange exchange = new FakeExchange(TestRequest.get("/hello"));
        assertThat(enforcer.admit(exchange)).isTrue();
        assertThat(exchange.status).isZero();
      }
      assertThat(log.messages())
          .containsExactly(
              "Sluice could not decide GET /hello; letting it through"
                  + " (each kind of failure is logged at most once in 5 minutes)");
    }
  }
}
