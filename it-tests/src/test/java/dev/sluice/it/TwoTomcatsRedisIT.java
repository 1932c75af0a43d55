package dev.sluice.it;

import static dev.sluice.it.Http.LIMIT;
import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.RESET;
import static dev.sluice.it.Http.RETRY_AFTER;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.LogCapture;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two Tomcat 11 servers whose filters share one Redis admit the limit in total, not each, and
 * answer past it exactly as the memory store does. A third server on the memory store is the
 * reference for the 429s. Each filter opens its own Redis store from its ratelimit.yaml, as two
 * JVMs would; that they run in one JVM here changes nothing Redis sees. The token bucket of 1h has
 * no boundary to cross mid-test, so the remaining counts are exact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoTomcatsRedisIT {
  private static final int N = 6;
  private static final int LEASED = 20;
  private static final String RULES =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: shared, match: { path: /api/hello }, key: ip, limit: %d, window: 1h,
            algorithm: token_bucket }
        - { id: leased, match: { path: /api/leased }, key: ip, limit: %d, window: 1h,
            algorithm: fixed_window, consistency: local_first, sync: 100ms }
      """
          .formatted(N, LEASED);
  private static final String REDIS =
      """
      store:
        type: redis
        key_prefix: %s
        redis: { url: %s, timeout: 50ms, pool_size: 32 }
      fleet: { size: auto }
      """;
  private static final long FLEET_WITHIN_MILLIS = 10_000;

  private final LogCapture storeLog = LogCapture.of("dev.sluice.store.redis");
  private final Tomcats tomcats = new Tomcats();
  private final String prefix = "tt" + Long.toString(System.currentTimeMillis(), 36);
  private RedisServer redis;
  private Http a;
  private Http b;
  private Http memory;

  @BeforeAll
  void start() throws Exception {
    redis = RedisServers.standalone();
    String shared = REDIS.formatted(prefix, redis.uri()) + RULES;
    a = tomcats.deploy(shared);
    b = tomcats.deploy(shared);
    memory = tomcats.deploy(RULES);
  }

  /**
   * Stops every server before checking Sluice's threads: with two filters per store kind, one
   * server's threads outlive the other's stop.
   */
  @AfterAll
  void stop() throws Exception {
    try {
      tomcats.stop();
      long deadline = System.currentTimeMillis() + 5_000;
      while (!sluiceThreads().isEmpty() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(sluiceThreads()).as("Sluice threads alive after the servers stopped").isEmpty();
    } finally {
      storeLog.close();
      tomcats.delete();
      if (redis != null) {
        redis.close();
      }
    }
  }

  @Test
  void twoServersAdmitTheLimitInTotalThenBothRejectLikeTheMemoryStore() throws Exception {
    int served = a.served();
    for (int i = 1; i <= N; i++) {
      Http server = i % 2 == 1 ? a : b;
      HttpResponse<String> allowed = server.get("/api/hello", "10.8.0.1");
      assertThat(allowed.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(number(allowed, LIMIT)).isEqualTo(N);
      // Counting down across both servers is the proof that they share one bucket.
      assertThat(number(allowed, REMAINING))
          .as("permits left after request %d", i)
          .isEqualTo(N - i);
    }
    List<HttpResponse<String>> rejected = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      rejected.add((i % 2 == 0 ? a : b).get("/api/hello", "10.8.0.1"));
    }
    assertThat(a.served() - served).as("requests the apps served").isEqualTo(N);

    for (int i = 0; i < N; i++) {
      assertThat(memory.get("/api/hello", "10.8.0.2").statusCode()).isEqualTo(200);
    }
    HttpResponse<String> reference = memory.get("/api/hello", "10.8.0.2");
    long referenceRetry = assertRejected(reference, "shared");
    for (HttpResponse<String> response : rejected) {
      long retryAfter = assertRejected(response, "shared");
      assertThat(headerNames(response)).isEqualTo(headerNames(reference));
      assertThat(number(response, LIMIT)).isEqualTo(number(reference, LIMIT));
      assertThat(number(response, REMAINING)).isEqualTo(number(reference, REMAINING)).isZero();
      // One token per 3600/N s; the two stores decide a second or so apart at most.
      assertThat(retryAfter).isCloseTo(referenceRetry, within(1L));
      assertThat(number(response, RESET)).isCloseTo(number(reference, RESET), within(1L));
    }
  }

  /**
   * A local-first rule's servers decide from leases they take from the one count in Redis: in
   * total they never admit more than its limit in its window, and leave unused at most what the
   * leases hold (docs/design.md: fleet × (c + c ÷ 2), c = max(1, limit ÷ 2 × fleet), here at most 2
   * JVMs: 14 of 20). Every request past it is a proper 429 of the rule.
   */
  @Test
  void twoServersOnALocalFirstRuleNeverAdmitMoreThanItsLimitInTotal() throws Exception {
    int served = 0;
    for (int i = 0; i < 3 * LEASED; i++) {
      HttpResponse<String> response = (i % 2 == 0 ? a : b).get("/api/leased", "10.8.0.3");
      if (response.statusCode() == 200) {
        served++;
        assertThat(number(response, LIMIT)).isEqualTo(LEASED);
      } else {
        assertRejected(response, "leased");
      }
    }
    assertThat(served).as("admitted by both servers together").isBetween(LEASED - 14, LEASED);
  }

  /**
   * {@code fleet: { size: auto }}: each store beats into {@code <prefix>:fleet} every second and
   * takes the number of members alive as its fleet size. HTTP cannot show that size (it only
   * matters while Redis is down), so the test reads the set in Redis and the store's own log line,
   * written by each store when its count changes: two lines saying two JVMs means both counted 2.
   */
  @Test
  void anAutoFleetCountsBothServers() throws Exception {
    long deadline = System.currentTimeMillis() + FLEET_WITHIN_MILLIS;
    while (System.currentTimeMillis() < deadline && (fleetMembers() != 2 || countedTwo() < 2)) {
      Thread.sleep(100);
    }
    assertThat(fleetMembers()).as("members of %s:fleet", prefix).isEqualTo(2);
    assertThat(countedTwo())
        .as("stores that logged 2 JVMs, in %s", storeLog.messages())
        .isEqualTo(2);
  }

  private long fleetMembers() {
    try (RedisProbe probe = redis.probe()) {
      return (Long) probe.call("ZCARD", prefix + ":fleet");
    }
  }

  private long countedTwo() {
    return storeLog.messages().stream().filter(m -> m.startsWith("Sluice: 2 JVMs share")).count();
  }

  /** The rate-limit part of a response's headers, by name. */
  private static Set<String> headerNames(HttpResponse<?> response) {
    return response.headers().map().keySet().stream()
        .map(String::toLowerCase)
        .filter(
            n ->
                n.startsWith("x-ratelimit-")
                    || n.equals(RETRY_AFTER.toLowerCase())
                    || n.equals("content-type"))
        .collect(Collectors.toSet());
  }

  private static List<String> sluiceThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("sluice-"))
        .map(Thread::getName)
        .collect(Collectors.toList());
  }
}
