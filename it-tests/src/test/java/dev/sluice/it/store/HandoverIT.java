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
import dev.sluice.store.Store;
import dev.sluice.store.redis.RedisStore;
import dev.sluice.store.redis.ScriptTime;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.JedisPooled;

/**
 * A fleet of two JVMs, a limit of 100, Redis killed and restarted empty. During the outage each
 * store admits its share, 50, locally. When Redis is back each hands what it admitted over before
 * it shares limits again, so Redis then counts 100 and admits nothing more in that window: 100 in
 * all, where forgetting the local shares would let the fleet admit 200.
 *
 * <p>The stores count on Redis TIME over a window of 100 to 200 days with now in its middle, so no
 * window rolls over and the bucket earns no token during the test. Their budget is a generous
 * second: a killed Redis refuses connections at once anyway, and a call that merely took long on a
 * busy machine must not reopen the breaker after the switch.
 */
class HandoverIT extends WithOwnRedisProcess {
  private static final int LIMIT = 100;

  private LogCapture log;
  private RedisStore a;
  private RedisStore b;

  @BeforeEach
  void listen() {
    log = LogCapture.of("dev.sluice.store.redis");
  }

  @AfterEach
  void closeStores() {
    log.close();
    for (RedisStore store : new RedisStore[] {a, b}) {
      if (store != null) {
        store.close();
      }
    }
    redis.restart(); // every test starts from a healthy, empty server
  }

  /** A member of a fleet of two, named so the log tells the members apart. */
  private static RedisStore member(String name, String prefix) {
    return new RedisStore(
        new JedisPooled(redis.host(), redis.port()),
        name,
        prefix,
        2,
        Clock.SYSTEM,
        10_000,
        ScriptTime.REDIS,
        1_000);
  }

  /** How many of {@code tries} fail_open requests of {@code id} the store admits. */
  static int admitted(Store store, Counters rule, Quota quota, String id, int tries) {
    int allowed = 0;
    for (int i = 0; i < tries; i++) {
      Permit permit = new Permit(rule, id, quota, 1, OnError.FAIL_OPEN);
      store.acquire(Collections.singletonList(permit));
      allowed += permit.verdict().allowed() ? 1 : 0;
    }
    return allowed;
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void theFleetAdmitsOneLimitAcrossTheSwitch(Algorithm algorithm) throws InterruptedException {
    String prefix = "handover-" + algorithm;
    long window = RedisKeys.windowFarFromItsEdges();
    Quota quota = Quota.of(LIMIT, window, LIMIT);
    a = member("A", prefix);
    b = member("B", prefix);
    Counters ruleA = a.counters("api", algorithm, window);
    Counters ruleB = b.counters("api", algorithm, window);
    String client = "ip=10.2.0.1";

    redis.kill();
    int localA = admitted(a, ruleA, quota, client, 2 * LIMIT);
    int localB = admitted(b, ruleB, quota, client, 2 * LIMIT);
    assertThat(localA).as("A's share, decided locally").isEqualTo(LIMIT / 2);
    assertThat(localB).as("B's share, decided locally").isEqualTo(LIMIT / 2);

    redis.restart();
    // Other clients' requests end the outage: each store's probe is its handover.
    for (int i = 0; i < 1_000 && !(switched("A") && switched("B")); i++) {
      admitted(a, ruleA, quota, "ip=10.2.0.2", 1);
      admitted(b, ruleB, quota, "ip=10.2.0.2", 1);
      Thread.sleep(20);
    }
    assertThat(switched("A") && switched("B")).as("both stores share limits again").isTrue();

    int afterA = admitted(a, ruleA, quota, client, 2 * LIMIT);
    int afterB = admitted(b, ruleB, quota, client, 2 * LIMIT);
    int total = localA + localB + afterA + afterB;
    System.out.printf(
        "HandoverIT %s: %d + %d admitted locally, then %d + %d from Redis: %d in all "
            + "(had Redis not been told, it would have admitted %d more)%n",
        algorithm, localA, localB, afterA, afterB, total, LIMIT);
    assertThat(afterA + afterB).as("admitted from Redis after the switch").isZero();
    assertThat(total).isLessThanOrEqualTo(LIMIT);
    // Redis decides again, not the local shares: a new client gets the whole limit.
    assertThat(admitted(a, ruleA, quota, "ip=10.2.0.3", 2 * LIMIT)).isEqualTo(LIMIT);
  }

  private boolean switched(String store) {
    String line = "Redis " + store + " answers again; handed over ";
    return log.messages().stream().anyMatch(l -> l.contains(line));
  }
}
