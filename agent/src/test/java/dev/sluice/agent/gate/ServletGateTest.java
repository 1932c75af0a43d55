package dev.sluice.agent.gate;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.LogCapture;
import dev.sluice.agent.gate.FakeServlet.Namespace;
import dev.sluice.agent.gate.FakeServlet.Request;
import dev.sluice.agent.gate.FakeServlet.Response;
import dev.sluice.config.ConfigParser;
import dev.sluice.config.ConfigSource;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.config.StartRefusedException;
import dev.sluice.core.Limiter;
import dev.sluice.http.Enforcer;
import dev.sluice.http.Exchange;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ServletGateTest {
  private static final String RULES =
      "rules:\n"
          + "  - { id: hello, match: { path: /hello }, key: ip, limit: 1, window: 10s,"
          + " algorithm: fixed_window }\n"
          + "  - { id: tenant, match: { path: /tenant }, key: 'header:X-Tenant', limit: 1,"
          + " window: 10s, algorithm: fixed_window }\n";

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final ServletGate gate = ServletGate.of(enforcer());
  private final LogCapture agentLog = LogCapture.of("dev.sluice.agent");
  private final LogCapture httpLog = LogCapture.of("dev.sluice.http");

  private Enforcer enforcer() {
    try {
      Limiter limiter = new Limiter(new MemoryStore(clock, 10, 0));
      limiter.apply(ConfigParser.parse("test.yaml", RULES).rules());
      return new Enforcer(limiter);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @AfterEach
  void stopCapturing() {
    agentLog.close();
    httpLog.close();
  }

  private boolean rejected(Request request, Response response) {
    return gate.rejected(request.proxy(), response.proxy());
  }

  @Test
  void underRefuseStartAnInvalidConfigRefusesTheStartWithItsErrors(@TempDir Path dir)
      throws Exception {
    Path file =
        Files.writeString(dir.resolve("ratelimit.yaml"), RULES.replace("limit: 1,", "limit: 0,"));
    assertThatThrownBy(
            () ->
                ServletGate.prepare(
                        ConfigSource.of(file.toString(), null),
                        OnInvalidConfig.REFUSE_START,
                        () -> {},
                        () -> {})
                    .awaitRules())
        .isInstanceOf(StartRefusedException.class)
        .hasMessageStartingWith(
            "Sluice rejected " + file + "; refusing to start (on_invalid_config=refuse_start):\n")
        .hasMessageContaining(file + ":2:")
        .hasMessageContaining(": rules[0] (hello).limit: ");
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void anAllowedRequestGoesOnWithTheRateLimitHeaders(Namespace namespace) {
    Response response = new Response(namespace);
    assertThat(rejected(new Request(namespace), response)).isFalse();
    assertThat(response.headers)
        .containsExactly(
            Map.entry("X-RateLimit-Limit", "1"),
            Map.entry("X-RateLimit-Remaining", "0"),
            Map.entry("X-RateLimit-Reset", "10"),
            Map.entry("X-RateLimit-Rule", "hello"));
    assertThat(response.status).isEqualTo(200);
    assertThat(response.body).hasToString("");
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aRequestOverTheLimitIsAnsweredWithA429OnAClearedResponse(Namespace namespace) {
    rejected(new Request(namespace), new Response(namespace));
    clock.advance(2_500_000);
    Response response = new Response(namespace);
    response.headers.put("X-App", "stale");
    response.status = 201;
    assertThat(rejected(new Request(namespace), response)).isTrue();
    assertThat(response.status).isEqualTo(429);
    assertThat(response.contentType).isEqualTo("application/json");
    assertThat(response.body)
        .hasToString("{\"error\":\"rate_limited\",\"rule\":\"hello\",\"retryAfterSeconds\":8}");
    assertThat(response.headers)
        .doesNotContainKey("X-App")
        .containsEntry("Retry-After", "8")
        .containsEntry("X-RateLimit-Remaining", "0")
        .containsEntry("X-RateLimit-Reset", "8");
    assertThat(response.calls.get(0)).isEqualTo("reset");
    assertThat(response.calls).containsSubsequence("reset", "setStatus 429", "getWriter");
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void forwardsIncludesAsyncAndErrorDispatchesAreNeverCounted(Namespace namespace) {
    for (String dispatch : List.of("FORWARD", "INCLUDE", "ASYNC", "ERROR")) {
      Request request = new Request(namespace);
      request.dispatcherType = dispatch;
      Response response = new Response(namespace);
      assertThat(rejected(request, response)).as(dispatch).isFalse();
      assertThat(response.calls).as(dispatch).isEmpty();
      assertThat(request.attributes).as(dispatch).isEmpty();
    }
    assertThat(rejected(new Request(namespace), new Response(namespace))).isFalse();
    assertThat(rejected(new Request(namespace), new Response(namespace))).isTrue();
    Request forward = new Request(namespace);
    forward.dispatcherType = "FORWARD";
    assertThat(rejected(forward, new Response(namespace))).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aRequestAlreadyDecidedIsNotCountedAgain(Namespace namespace) {
    Request decided = new Request(namespace);
    decided.attributes.put(Exchange.DECIDED_ATTRIBUTE, Boolean.TRUE);
    Response response = new Response(namespace);
    assertThat(rejected(decided, response)).isFalse();
    assertThat(response.calls).isEmpty();
    assertThat(rejected(new Request(namespace), new Response(namespace))).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aCommittedResponseOverTheLimitIsLetThroughUntouched(Namespace namespace) {
    rejected(new Request(namespace), new Response(namespace));
    Response committed = new Response(namespace);
    committed.committed = true;
    assertThat(rejected(new Request(namespace), committed)).isFalse();
    assertThat(committed.calls).isEmpty();
    assertThat(committed.status).isEqualTo(200);
  }

  @Test
  void aRequestThatIsNoHttpServletRequestIsLetThrough() {
    Object servletRequestOnly =
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Namespace.JAVAX.type("ServletRequest")},
            (self, method, args) -> {
              throw new AssertionError("called " + method.getName());
            });
    Object response = new Response(Namespace.JAVAX).proxy();
    assertThat(gate.rejected(new Object(), response)).isFalse();
    assertThat(gate.rejected(servletRequestOnly, response)).isFalse();
    assertThat(agentLog.messages()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aRequestWhoseHeaderCannotBeReadIsLetThrough(Namespace namespace) {
    for (int i = 0; i < 2; i++) {
      Request request = new Request(namespace);
      request.path = "/tenant";
      request.failing.add("getHeader");
      Response response = new Response(namespace);
      assertThat(rejected(request, response)).isFalse();
      assertThat(response.calls).isEmpty();
    }
    // The failure is inside the decision, where the Enforcer catches it and logs it once.
    assertThat(httpLog.messages())
        .containsExactly(
            "Sluice could not decide GET /tenant; letting it through"
                + " (each kind of failure is logged at most once in 5 minutes)");
    assertThat(agentLog.messages()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aFailureAroundTheDecisionIsLoggedOncePerKind(Namespace namespace) {
    for (String failing : List.of("getAttribute", "getAttribute", "getDispatcherType")) {
      Request request = new Request(namespace);
      request.failing.add(failing);
      assertThat(rejected(request, new Response(namespace))).as(failing).isFalse();
    }
    assertThat(agentLog.messages())
        .hasSize(2)
        .allMatch(message -> message.startsWith("Sluice: a request was let through"));
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aRejectionThatCannotBeWrittenLetsTheRequestThrough(Namespace namespace) {
    rejected(new Request(namespace), new Response(namespace));
    Response response = new Response(namespace);
    response.failing.add("getWriter");
    assertThat(rejected(new Request(namespace), response)).isFalse();
    assertThat(agentLog.messages()).hasSize(1);
  }

  /** A valve took the output stream already: the app must not run on a response set to 429. */
  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aRejectionThatCannotBeWrittenIsUndoneBeforeTheRequestGoesThrough(Namespace namespace) {
    rejected(new Request(namespace), new Response(namespace));
    Response response = new Response(namespace);
    response.failing.add("getWriter");

    assertThat(rejected(new Request(namespace), response)).isFalse();

    assertThat(response.calls).endsWith("getWriter", "reset");
    assertThat(response.status).isEqualTo(200);
    assertThat(response.headers).isEmpty();
  }

  /** A container stopping interrupts its threads: one waiting for the rules must still know. */
  @Test
  void aRequestInterruptedWhileTheRulesLoadPassesWithTheInterruptKept() {
    HeldLoader loader = new HeldLoader(enforcer());
    ServletGate loadingGate = new ServletGate(new RulesLoading(loader, System::nanoTime));
    try {
      Thread.currentThread().interrupt();
      boolean rejected =
          loadingGate.rejected(
              new Request(Namespace.JAVAX).proxy(), new Response(Namespace.JAVAX).proxy());

      assertThat(Thread.interrupted()).as("the interrupt kept").isTrue();
      assertThat(rejected).isFalse();
      assertThat(agentLog.messages()).as("no failure of the agent's").isEmpty();
    } finally {
      loadingGate.close();
      loader.release.countDown();
    }
  }

  /**
   * A request that can wait no longer for rules still loading is decided by the file's on_error: a
   * fail_closed rule denies it, a fail_open one lets it through, nothing is counted.
   */
  @Test
  void aRequestThatCannotWaitIsDecidedByTheFilesOnError(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("ratelimit.yaml"),
            "rules:\n"
                + "  - { id: closed, match: { path: /hello }, key: ip, limit: 5, window: 10s,"
                + " on_error: fail_closed }\n"
                + "  - { id: open, match: { path: /open }, key: ip, limit: 5, window: 10s }\n");
    HeldLoader loader = new HeldLoader(enforcer());
    loader.fallback = RulesLoading.byOnError(ConfigSource.of(file.toString(), null));
    RulesLoading.Ticker noWait =
        new RulesLoading.Ticker() {
          @Override
          public long nanos() {
            return System.nanoTime();
          }

          @Override
          public void await(CountDownLatch latch, long nanos) {}
        };
    ServletGate loadingGate = new ServletGate(new RulesLoading(loader, noWait));
    try {
      Response denied = new Response(Namespace.JAKARTA);
      assertThat(loadingGate.rejected(new Request(Namespace.JAKARTA).proxy(), denied.proxy()))
          .as("fail_closed")
          .isTrue();
      assertThat(denied.status).isEqualTo(429);
      assertThat(denied.headers).containsEntry("Retry-After", "1");

      Request open = new Request(Namespace.JAKARTA);
      open.path = "/open";
      assertThat(loadingGate.rejected(open.proxy(), new Response(Namespace.JAKARTA).proxy()))
          .as("fail_open")
          .isFalse();
      assertThat(agentLog.messages())
          .singleElement(InstanceOfAssertFactories.STRING)
          .contains("each rule decides by its on_error alone");
    } finally {
      loadingGate.close();
      loader.release.countDown();
    }
  }
}
