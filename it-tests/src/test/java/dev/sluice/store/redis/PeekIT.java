package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.WithStandaloneRedis;
import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * peek.lua tells, key by key, what acquire.lua would decide at the same instant, and writes
 * nothing: each scenario peeks an identity's keys at an exact time, then acquires them at that
 * time, and the two must agree while the keys stay as they were between them.
 */
class PeekIT extends WithStandaloneRedis {
  private static final long SECOND = 1_000_000;
  private static final long WINDOW = 60 * SECOND;

  /** The start of a window. */
  private static final long T0 = 30_000_000L * WINDOW;

  /** A fresh identity per call: tests share the server but never a key. */
  private static final AtomicInteger IDENTITIES = new AtomicInteger();

  private final MemoryStore local = new MemoryStore(Clock.SYSTEM, 100, 0);

  /** One call of a fresh identity over a rule of each algorithm, three permits a window. */
  private IdentityCall call() {
    String identity = "ip=10.0.0." + IDENTITIES.incrementAndGet();
    List<Permit> permits = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (Algorithm algorithm : Algorithm.values()) {
      RedisCounters counters = new RedisCounters(local.counters("r", algorithm, WINDOW));
      permits.add(new Permit(counters, identity, Quota.of(3, WINDOW, 3), 1));
      keys.add(counters.key("pk", RedisKey.hash(identity)));
    }
    return IdentityCall.byIdentity(permits, keys.toArray(new String[0])).get(0);
  }

  private static List<String> verdicts(IdentityCall call) {
    List<String> verdicts = new ArrayList<>();
    for (Permit permit : call.permits) {
      verdicts.add(permit.verdict().toString());
    }
    return verdicts;
  }

  /** Every write Redis made since it started (it never saves here, which would reset this). */
  private static long writes() {
    for (String line : jedis.info("persistence").split("\r?\n")) {
      if (line.startsWith("rdb_changes_since_last_save:")) {
        return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
      }
    }
    throw new IllegalStateException("no rdb_changes_since_last_save in INFO persistence");
  }

  @Test
  void aPeekTellsWhatAcquireDecidesAtTheSameInstantAndWritesNothing() {
    IdentityCall call = call();
    for (long at = T0; at < T0 + 2 * WINDOW; at += 7 * SECOND) {
      long writes = writes();
      call.peek(jedis, "=" + at);
      List<String> peeked = verdicts(call);
      assertThat(writes()).as("writes by the peek at %d", at).isEqualTo(writes);
      call.fill(Script.ACQUIRE.run(jedis, call.keys, call.acquireArgs("=" + at)));
      assertThat(peeked).as("at %d", at).isEqualTo(verdicts(call));
    }
    assertThat(String.join(" ", verdicts(call)))
        .as("windows ran full and emptied again")
        .contains("denied")
        .contains("allowed");
  }

  @Test
  void anIdentityNeverSeenGetsNoKey() {
    IdentityCall call = call();
    long writes = writes();
    call.peek(jedis, "=" + T0);
    assertThat(call.allowed()).isTrue();
    assertThat(jedis.exists(call.keys.toArray(new String[0]))).isZero();
    assertThat(writes()).isEqualTo(writes);
  }

  @Test
  void aKeyOfAnotherTypeIsRefusedAsAcquireRefusesIt() {
    IdentityCall call = call();
    jedis.lpush(call.keys.get(1), "not a count");
    assertThatThrownBy(() -> call.peek(jedis, "=" + T0))
        .isInstanceOf(JedisDataException.class)
        .hasMessageStartingWith("WRONGTYPE");
    assertThat(jedis.exists(call.keys.get(0))).isFalse();
  }

  @Test
  void aServerThatForgotTheScriptIsTaughtItAgain() {
    IdentityCall call = call();
    call.peek(jedis, "=" + T0);
    jedis.scriptFlush();
    call.peek(jedis, "=" + T0);
    assertThat(call.allowed()).isTrue();
    assertThat(jedis.scriptExists(Arrays.asList(Script.PEEK.sha1()))).containsExactly(true);
  }
}
