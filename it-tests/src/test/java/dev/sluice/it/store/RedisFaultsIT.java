package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Redis killed, paused (SIGSTOP: commands time out) and restarted empty (scripts gone): fail_open
 * rules admit at most this JVM's share, fail_closed rules deny, a decision stays fast once the
 * breaker is open, nothing reaches the caller as an exception, and Redis takes over again by
 * itself. The store runs as in production: Redis TIME, a 50 ms budget, a fleet of 4.
 */
class RedisFaultsIT extends WithOwnRedisProcess {
  private static final long MINUTE = 60_000_000;
  private static final Quota HUNDRED = Quota.of(100, MINUTE, 100);
  private static final AtomicInteger PREFIXES = new AtomicInteger();

  private final String prefix = "faults" + PREFIXES.incrementAndGet();
  private RedisStore store;
  private Counters open;
  private Counters closed;

  @BeforeEach
  void openStore() {
    RedisSettings settings = RedisSettings.standalone(URI.create(redis.uri()), 50, 8);
    store = RedisStore.open(settings, prefix, 4, Clock.SYSTEM, 10_000);
    open = store.counters("open", Algorithm.TOKEN_BUCKET, MINUTE);
    closed = store.counters("closed", Algorithm.FIXED_WINDOW, MINUTE);
  }

  @AfterEach
  void closeStore() {
    store.close();
    redis.restart(); // whatever a test did to it, the next one starts from a healthy server
  }

  private boolean take(Counters counters, String identity, OnError onError) {
    Permit permit = new Permit(counters, identity, HUNDRED, 1, onError);
    store.acquire(Collections.singletonList(permit));
    assertThat(permit.verdict().allowed() || permit.verdict().retryAfterMicros() > 0)
        .as("every verdict is filled in")
        .isTrue();
    return permit.verdict().allowed();
  }

  private int admitted(Counters counters, String identity, OnError onError, int attempts) {
    int allowed = 0;
    for (int i = 0; i < attempts; i++) {
      allowed += take(counters, identity, onError) ? 1 : 0;
    }
    return allowed;
  }

  /** Decides with Redis down: the share for fail_open, nothing for fail_closed, quickly. */
  private void decidesLocally(String identity) {
    Outage outage = Outage.measure(() -> take(open, identity, OnError.FAIL_OPEN), 200);
    assertThat(outage.admitted).as("a quarter of 100, this JVM's share").isEqualTo(25);
    assertThat(outage.p99AfterWarmupMicros).as("p99 once the breaker is open").isLessThan(5_000);
    assertThat(admitted(closed, identity, OnError.FAIL_CLOSED, 20)).isZero();
    Permit denied = new Permit(closed, identity, HUNDRED, 1, OnError.FAIL_CLOSED);
    store.acquire(Collections.singletonList(denied));
    assertThat(denied.verdict().retryAfterMicros()).isEqualTo(1_000_000);
    System.out.printf(
        "outage: %d of 200 admitted locally; p99 %d us after the first %d%n",
        outage.admitted, outage.p99AfterWarmupMicros, Outage.WARMUP);
  }

  /** Waits (bounded) until a new identity's decision is written in Redis again. */
  private long secondsUntilRedisDecides() {
    long start = System.nanoTime();
    for (int i = 0; i < 200; i++) {
      String identity = "ip=10.9.0." + i;
      take(open, identity, OnError.FAIL_OPEN);
      if (writtenInRedis(RedisKeys.key(prefix, identity, "open", Algorithm.TOKEN_BUCKET, MINUTE))) {
        return (System.nanoTime() - start) / 1_000_000_000;
      }
      sleepQuietly(100);
    }
    throw new AssertionError("Redis never took over again within 20 s");
  }

  @Test
  void aKilledRedisLeavesEachJvmItsShareThenTakesOverAgain() {
    assertThat(admitted(open, "ip=10.0.0.1", OnError.FAIL_OPEN, 10)).isEqualTo(10);
    redis.kill();
    decidesLocally("ip=10.0.0.2");
    redis.restart();
    assertThat(secondsUntilRedisDecides()).isLessThanOrEqualTo(10);
  }

  @Test
  void aPausedRedisTimesOutIntoTheSameShare() {
    redis.pause();
    try {
      decidesLocally("ip=10.0.0.3");
    } finally {
      redis.resume();
    }
    assertThat(secondsUntilRedisDecides()).isLessThanOrEqualTo(10);
  }

  /**
   * Redis had counted 60 of a fixed window's 100 when it died: for the rest of that window this
   * JVM, one of 4, admits what Redis had left ÷ 4 = 10 locally, not its whole share of 25 on top. A
   * store of its own waits up to a second for Redis, so that no decision before the kill is made
   * locally for a reply this loaded machine was slow to give.
   */
  @Test
  void theWindowRedisDiedInIsSharedFromWhatItHadLeft() {
    long window = QuietWindow.lengthFor(redis, MINUTE, 10 * QuietWindow.SECOND);
    Quota hundred = Quota.of(100, window, 100);
    RedisSettings patient = RedisSettings.standalone(URI.create(redis.uri()), 1_000, 8);
    try (RedisStore lasting = RedisStore.open(patient, prefix + "p", 4, Clock.SYSTEM, 10_000)) {
      Counters fixed = lasting.counters("fixed", Algorithm.FIXED_WINDOW, window);
      int[] admitted = new int[2];
      for (int i = 0; i < 60 + 50; i++) {
        if (i == 60) {
          redis.kill();
        }
        Permit permit = new Permit(fixed, "ip=10.0.0.10", hundred, 1, OnError.FAIL_OPEN);
        lasting.acquire(Collections.singletonList(permit));
        admitted[i < 60 ? 0 : 1] += permit.verdict().allowed() ? 1 : 0;
        assertThat(permit.decidedLocally()).as("decision %d", i).isEqualTo(i >= 60);
      }
      assertThat(admitted).containsExactly(60, 10);
    }
  }

  @Test
  void aRedisRestartedEmptyIsTaughtTheScriptsAgain() {
    assertThat(admitted(open, "ip=10.0.0.4", OnError.FAIL_OPEN, 3)).isEqualTo(3);
    redis.restart();
    assertThat(secondsUntilRedisDecides()).isLessThanOrEqualTo(10);
    // The old counts are gone with the data; limits hold again from here.
    assertThat(admitted(open, "ip=10.0.0.5", OnError.FAIL_OPEN, 150)).isEqualTo(100);
  }

  @Test
  void anOutageIsLoggedOnceWhenItStartsAndOnceWhenItEnds() {
    List<String> lines;
    try (LogCapture log = LogCapture.of("dev.sluice.store.redis")) {
      lines = log.messages();
      redis.kill();
      admitted(open, "ip=10.0.0.7", OnError.FAIL_OPEN, 300);
      redis.restart();
      secondsUntilRedisDecides();
      admitted(open, "ip=10.0.0.8", OnError.FAIL_OPEN, 50);
    }
    assertThat(lines).filteredOn(l -> l.contains("is failing")).hasSize(1);
    assertThat(lines).filteredOn(l -> l.contains("limits are shared again")).hasSize(1);
  }

  @Test
  void aClusterNobodyCanReachAtStartUpStillDecides() throws Exception {
    int closedPort;
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    RedisSettings nowhere =
        RedisSettings.cluster(
            Collections.singletonList(URI.create("redis://127.0.0.1:" + closedPort)), 50, 4);
    try (RedisStore lonely = RedisStore.open(nowhere, "lonely", 4, Clock.SYSTEM, 1_000)) {
      Counters rule = lonely.counters("open", Algorithm.TOKEN_BUCKET, MINUTE);
      int allowed = 0;
      for (int i = 0; i < 40; i++) {
        Permit permit = new Permit(rule, "ip=10.0.0.9", HUNDRED, 1, OnError.FAIL_OPEN);
        lonely.acquire(Collections.singletonList(permit));
        allowed += permit.verdict().allowed() ? 1 : 0;
      }
      assertThat(allowed).isEqualTo(25);
    }
  }

  @Test
  void aRequestOfSeveralRulesWithOneFailClosedIsDeniedWhole() {
    redis.kill();
    Permit lenient = new Permit(open, "ip=10.0.0.6", HUNDRED, 1, OnError.FAIL_OPEN);
    Permit strict = new Permit(closed, "global", HUNDRED, 1, OnError.FAIL_CLOSED);
    store.acquire(Arrays.asList(lenient, strict));
    assertThat(strict.verdict().allowed()).isFalse();
    assertThat(lenient.verdict().allowed()).isFalse();
  }

  /** Whether Redis holds {@code key}; a connection the last restart broke just means not yet. */
  private static boolean writtenInRedis(String key) {
    try {
      return jedis.exists(key);
    } catch (JedisException e) {
      return false;
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
