package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Counters;
import dev.sluice.store.ManualClock;
import dev.sluice.store.Permit;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A peek asks Redis or fails: no local verdict stands in, and, being no decision, a failed peek is
 * no failure the breakers or the metrics hear of. The client here never reaches a server.
 */
class RedisPeekTest {
  private static final long MINUTE = 60 * ManualClock.SECOND;

  private final RedisStore store =
      new RedisStore(
          new JedisPooled("127.0.0.1", 1),
          "down",
          "p",
          1,
          new ManualClock(10 * MINUTE),
          1_000,
          ScriptTime.REDIS,
          200);

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aRedisThatCannotAnswerFailsThePeekAndNothingElse() {
    Counters counters = store.counters("r", Algorithm.FIXED_WINDOW, MINUTE);
    for (int i = 0; i <= Breaker.FAILURES_TO_OPEN; i++) {
      Permit permit = new Permit(counters, "ip=1", Quota.of(10, MINUTE, 10), 1);
      List<Permit> permits = Collections.singletonList(permit);
      assertThatThrownBy(() -> store.peek(permits)).isInstanceOf(JedisConnectionException.class);
      assertThat(permit.verdict().decided()).as("no local verdict").isFalse();
    }
    StoreStatus status = store.status();
    assertThat(status.openBreakers()).isZero();
    assertThat(status.errors()).isZero();
    assertThat(status.commands()).isZero();
  }

  @Test
  void aPeekOfNoPermitAsksNothing() {
    store.peek(Collections.<Permit>emptyList());
  }
}
