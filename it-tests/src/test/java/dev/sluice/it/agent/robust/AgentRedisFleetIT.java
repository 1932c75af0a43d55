package dev.sluice.it.agent.robust;

import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two Tomcat 11 JVMs with the agent and {@code store.type: redis} on one real Redis admit the limit
 * in total, not each: requests alternate between them, or race on both at once, and exactly N are
 * served. The Redis timeout is generous, so a cold JVM's first calls never go local (where each
 * would decide alone); each JVM warms up with a client of its own first, and neither may log that
 * Redis failed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentRedisFleetIT {
  private static final AgentContainer CONTAINER = AgentContainer.TOMCAT_11;
  private static final int N = 10;
  private static final String RULES =
      """
      store:
        type: redis
        key_prefix: %s
        redis: { url: "%s", timeout: 1s }
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      rules:
        - { id: fleet, match: { path: /api/hello }, key: ip, limit: %d, window: 1h,
            algorithm: token_bucket }
      """;

  private RedisServer redis;
  private AgentRun run;
  private final List<AgentServer> servers = new ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    redis = RedisServers.standalone();
    String prefix = "af" + Long.toString(System.currentTimeMillis(), 36);
    run = new AgentRun(AgentWebApp.create(CONTAINER, RULES.formatted(prefix, redis.uri(), N)));
    for (int i = 0; i < 2; i++) {
      AgentServer server = run.start(CONTAINER);
      servers.add(server);
      HttpResponse<String> warm = server.http().get("/api/hello", "10.27.9." + i);
      assertThat(warm.statusCode()).isEqualTo(200);
      assertThat(number(warm, REMAINING)).as("a warm-up client's first request").isEqualTo(N - 1);
    }
  }

  @AfterAll
  void stop() throws Exception {
    try {
      for (AgentServer server : servers) {
        AgentRun.assertStartedCleanly(server);
        assertThat(server.jvm().output())
            .doesNotContain(" is failing (")
            .as("Jedis logs through the agent's own SLF4J binding, never SLF4J's console notes")
            .doesNotContain("SLF4J");
      }
    } finally {
      try {
        if (run != null) {
          run.close();
        }
      } finally {
        if (redis != null) {
          redis.close();
        }
      }
    }
  }

  @Test
  void alternatingRequestsAdmitExactlyTheLimitInTotal() throws Exception {
    int served = servers.get(0).http().served() + servers.get(1).http().served();
    List<HttpResponse<String>> rejected = new ArrayList<>();
    int admitted = 0;
    for (int i = 0; i < 3 * N; i++) {
      HttpResponse<String> response = servers.get(i % 2).http().get("/api/hello", "10.27.0.1");
      if (response.statusCode() == 200) {
        admitted++;
        assertThat(i).as("an admission after a rejection").isEqualTo(admitted - 1);
        assertThat(number(response, REMAINING))
            .as("left after request %d", i + 1)
            .isEqualTo(N - i - 1);
      } else {
        rejected.add(response);
      }
    }
    assertThat(admitted).as("admitted by both JVMs together").isEqualTo(N);
    for (HttpResponse<String> response : rejected) {
      assertRejected(response, "fleet");
    }
    int servedNow = servers.get(0).http().served() + servers.get(1).http().served();
    assertThat(servedNow - served).as("requests the two apps served").isEqualTo(N);
  }

  @Test
  void requestsRacingOnBothJvmsAdmitExactlyTheLimitInTotal() throws Exception {
    int threads = 4;
    int perThread = N;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<int[]>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Http http = servers.get(t % 2).http();
        results.add(pool.submit(() -> statuses(http, perThread)));
      }
      int admitted = 0;
      int denied = 0;
      for (Future<int[]> result : results) {
        int[] counts = result.get(60, TimeUnit.SECONDS);
        admitted += counts[0];
        denied += counts[1];
      }
      assertThat(admitted).as("admitted by both JVMs together").isEqualTo(N);
      assertThat(denied).as("denied").isEqualTo(threads * perThread - N);
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** {@code count} requests of one client; returns how many were served and how many got 429. */
  private static int[] statuses(Http http, int count) throws Exception {
    int[] counts = new int[2];
    for (int i = 0; i < count; i++) {
      int status = http.get("/api/hello", "10.27.1.1").statusCode();
      assertThat(status).isIn(200, 429);
      counts[status == 200 ? 0 : 1]++;
    }
    return counts;
  }
}
