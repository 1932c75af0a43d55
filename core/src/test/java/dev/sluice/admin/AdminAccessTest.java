package dev.sluice.admin;

import static dev.sluice.admin.AdminTesting.TOKEN;
import static dev.sluice.admin.AdminTesting.get;
import static dev.sluice.admin.AdminTesting.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import dev.sluice.http.FakeExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Who gets an answer: a refused request must leave the exchange untouched, for the application to
 * answer as it answers any path it does not know.
 */
class AdminAccessTest {
  private static final String RULES = "rules: []\n";

  private static void assertPassedOn(AdminTesting t, FakeExchange exchange) throws Exception {
    assertThat(t.admin.answered(exchange)).isFalse();
    assertThat(exchange.status).isZero();
    assertThat(exchange.headers).isEmpty();
    assertThat(exchange.body).isNull();
  }

  @Test
  void withoutAnAdminSectionNothingIsAnswered() throws Exception {
    AdminTesting t = new AdminTesting(RULES);
    assertPassedOn(t, get("/_sluice/status", "127.0.0.1", null));
  }

  @Test
  void anAllowedAddressWithTheTokenIsAnswered() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(TOKEN, "127.0.0.1/32");
    FakeExchange exchange = get("/_sluice/status", "127.0.0.1", TOKEN);
    assertThat(t.admin.answered(exchange)).isTrue();
    assertThat(exchange.status).isEqualTo(200);
    assertThat(exchange.headers).containsEntry("Cache-Control", "no-store");
  }

  @Test
  void anotherPeerIsRefusedEvenWithTheToken() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(TOKEN, "10.0.0.0/8");
    assertPassedOn(t, get("/_sluice/status", "127.0.0.1", TOKEN));
  }

  @Test
  void aForwardedForFromAnUntrustedPeerIsIgnored() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(null, "10.0.0.0/8");
    FakeExchange spoofed = get("/_sluice/status", "203.0.113.9", null);
    TestRequest request = TestRequest.get("/_sluice/status").from("203.0.113.9");
    request.header("X-Forwarded-For", "10.1.2.3");
    assertPassedOn(t, new FakeExchange(request));
    assertPassedOn(t, spoofed);
  }

  @Test
  void aTrustedProxySpeaksForTheClientBehindIt() throws Exception {
    String rules = "client_ip: { trusted_proxies: [127.0.0.1/32] }\nrules: []\n";
    AdminTesting t = new AdminTesting(rules).allow(null, "10.0.0.0/8");
    TestRequest inside = TestRequest.get("/_sluice/status").from("127.0.0.1");
    inside.header("X-Forwarded-For", "10.1.2.3");
    assertThat(t.admin.answered(new FakeExchange(inside))).isTrue();

    // The client behind the proxy put the allowed address first: the proxy appended the real one.
    TestRequest outside = TestRequest.get("/_sluice/status").from("127.0.0.1");
    outside.header("X-Forwarded-For", "10.1.2.3, 203.0.113.9");
    assertPassedOn(t, new FakeExchange(outside));
  }

  @Test
  void theDefaultAllowsThisHostOnly() throws Exception {
    AdminTesting t = new AdminTesting(RULES);
    t.admin.configure(
        new AdminSettings("/_sluice", AdminSettings.LOOPBACK, null, t.limiter.rules().clientIp()));
    assertThat(t.admin.answered(get("/_sluice/status", "127.0.0.1", null))).isTrue();
    assertThat(t.admin.answered(get("/_sluice/status", "::1", null))).isTrue();
    assertPassedOn(t, get("/_sluice/status", "192.168.1.5", null));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "Bearer",
        "Bearer ",
        "Bearer wrong-token-0123456789",
        "Bearer s3cret-token-012345678",
        "Bearer s3cret-token-01234567890",
        "Basic czNjcmV0LXRva2VuLTAxMjM0NTY3ODk=",
        "s3cret-token-0123456789"
      })
  void aMissingOrWrongTokenIsRefused(String authorization) throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(TOKEN, "127.0.0.1/32");
    TestRequest request = request("/_sluice/status", "127.0.0.1");
    if (!authorization.isEmpty()) {
      request.header("Authorization", authorization);
    }
    assertPassedOn(t, new FakeExchange(request));
  }

  @Test
  void theSchemeIsCaseInsensitiveButTwoAuthorizationHeadersAreRefused() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(TOKEN, "127.0.0.1/32");
    TestRequest lower = request("/_sluice/status", "127.0.0.1");
    lower.header("Authorization", "bearer " + TOKEN);
    assertThat(t.admin.answered(new FakeExchange(lower))).isTrue();

    TestRequest twice = request("/_sluice/status", "127.0.0.1");
    twice.header("Authorization", "Bearer nope-nope-nope-nope");
    twice.header("Authorization", "Bearer " + TOKEN);
    assertPassedOn(t, new FakeExchange(twice));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "//_sluice/status",
        "/_sluice//status",
        "/_sluice/./status",
        "/x/../_sluice/status",
        "/%5Fsluice/status",
        "/_SLUICE/status",
        "/_sluice;jsessionid=1/status",
        "/_sluice/status/",
        "/_sluicex/status",
        "/_sluice/status/x",
        "/app/_sluice/status"
      })
  void onlyTheExactSpellingIsTheEndpoints(String path) throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.1/32");
    assertPassedOn(t, get(path, "127.0.0.1", null));
  }

  @Test
  void aReloadCanTurnTheEndpointOff() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.1/32");
    assertThat(t.admin.answered(get("/_sluice/", "127.0.0.1", null))).isTrue();
    t.admin.configure(null);
    assertPassedOn(t, get("/_sluice/", "127.0.0.1", null));
  }

  @Test
  void aCommittedResponseIsLeftAlone() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.1/32");
    FakeExchange exchange = get("/_sluice/status", "127.0.0.1", null);
    exchange.committed = true;
    assertPassedOn(t, exchange);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "X-Forwarded-For",
        "Forwarded",
        "X-Real-IP",
        "X-Forwarded-Host",
        "X-Forwarded-Proto",
        "Via"
      })
  void aPeerThatIsNoTrustedProxyButForwardsIsRefused(String header) throws Exception {
    // nginx on this host in front of the app: its connections come from loopback.
    AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.0/8");
    assertPassedOn(
        t, new FakeExchange(request("/_sluice/status", "127.0.0.1").header(header, "203.0.113.9")));
    assertThat(t.admin.answered(get("/_sluice/status", "127.0.0.1", null))).isTrue();
  }

  @Test
  void aChainOfTrustedProxiesOnlyNamesNoCaller() throws Exception {
    String rules = "client_ip: { trusted_proxies: [127.0.0.1/32, 10.0.0.0/24] }\nrules: []\n";
    AdminTesting t = new AdminTesting(rules).allow(null, "127.0.0.0/8", "10.0.0.0/8");
    // A proxy that writes no X-Forwarded-For: whoever is behind it, the proxy is all we see.
    assertPassedOn(t, get("/_sluice/status", "127.0.0.1", null));
    TestRequest proxies = request("/_sluice/status", "127.0.0.1");
    assertPassedOn(t, new FakeExchange(proxies.header("X-Forwarded-For", "10.0.0.7, 127.0.0.1")));
    TestRequest behind = request("/_sluice/status", "127.0.0.1");
    behind.header("X-Forwarded-For", "10.1.2.3, 10.0.0.7");
    assertThat(t.admin.answered(new FakeExchange(behind))).as("an untrusted hop in allow").isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "LocalHost:8080", "127.0.0.1", "127.0.0.1:8080", "[::1]:80"})
  void aLoopbackCallerNamingThisHostIsAnswered(String host) throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.0/8", "::1");
    TestRequest request = TestRequest.get("/_sluice/status").from("127.0.0.1");
    request.header("Host", host);
    assertThat(t.admin.answered(new FakeExchange(request))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "rebind.attacker.example",
        "rebind.attacker.example:8080",
        "localhost.attacker.example",
        "127.0.0.1.attacker.example",
        "shop.example.com",
        "10.0.0.1:8080",
        "[::2]:80"
      })
  void aLoopbackCallerNamingAnotherHostIsRefused(String host) throws Exception {
    // DNS rebinding: a page of another site, in a browser on this host, asks with its own name.
    // A sidecar at 127.0.0.6 passes on the name the client asked for.
    AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.0/8", "::1");
    for (String peer : new String[] {"127.0.0.1", "127.0.0.6", "::1"}) {
      TestRequest request = TestRequest.get("/_sluice/status").from(peer);
      if (!host.isEmpty()) {
        request.header("Host", host);
      }
      assertPassedOn(t, new FakeExchange(request));
    }
    TestRequest twice = TestRequest.get("/_sluice/status").from("127.0.0.1");
    twice.header("Host", "localhost").header("Host", "localhost");
    assertPassedOn(t, new FakeExchange(twice));
  }

  @Test
  void anotherCallerNeedsNoParticularHost() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(TOKEN, "10.0.0.0/8");
    TestRequest request = TestRequest.get("/_sluice/metrics").from("10.1.2.3");
    request.header("Host", "app-7.prod.internal:8080").header("Authorization", "Bearer " + TOKEN);
    assertThat(t.admin.answered(new FakeExchange(request))).isTrue();
  }

  /**
   * Tomcat's RemoteIpValve (Spring Boot's native forward headers, on by itself on Kubernetes)
   * trusts 10/8 and 127/8 by default: a pod that sends X-Forwarded-For: 127.0.0.1 reaches Sluice as
   * 127.0.0.1 with the header taken away. The container's mark is all that is left of it.
   */
  @Test
  void aRequestWhoseAddressTheContainerRewroteIsNoLoopbackCaller() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.0/8", "::1");
    TestRequest request = TestRequest.get("/_sluice/status").from("127.0.0.1");
    request.header("Host", "localhost");
    assertThat(t.admin.answered(new FakeExchange(request))).as("a real loopback caller").isTrue();

    FakeExchange rewritten = new FakeExchange(request);
    rewritten.forwarded = true;
    assertPassedOn(t, rewritten);
  }

  /**
   * The valve marks every request from one of its internal proxies, a header or not: on Kubernetes
   * every pod is one, and Prometheus scraping from its pod with the token must still be answered.
   */
  @Test
  void aForwardedRequestFromAnAllowedAddressIsAnsweredAsAny() throws Exception {
    AdminTesting t = new AdminTesting(RULES).allow(TOKEN, "10.0.0.0/8", "127.0.0.0/8");
    FakeExchange scrape = get("/_sluice/status", "10.1.2.3", TOKEN);
    scrape.forwarded = true;
    assertThat(t.admin.answered(scrape)).isTrue();

    TestRequest loopback = request("/_sluice/status", "127.0.0.1");
    loopback.header("Host", "localhost").header("Authorization", "Bearer " + TOKEN);
    FakeExchange forwarded = new FakeExchange(loopback);
    forwarded.forwarded = true;
    assertPassedOn(t, forwarded);
  }
}
