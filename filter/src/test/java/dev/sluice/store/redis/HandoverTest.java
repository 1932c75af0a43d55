package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Quota;
import dev.sluice.store.ManualClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * The handover's failure side, against a port nothing listens on (connections are refused at once);
 * its success side needs a real Redis and is in the it-tests' HandoverIT.
 */
class HandoverTest {
  private static final long MINUTE = 60 * ManualClock.SECOND;
  private static final Quota HUNDRED = Quota.of(100, MINUTE, 100);

  private final ManualClock clock = new ManualClock(10 * MINUTE);
  private final Breaker breaker = new Breaker(clock, "nowhere");
  private final Carry carry = new Carry(clock);
  private final Handover handover = new Handover(carry, breaker);
  private JedisPooled nowhere;
  private Pipeliner pipeliner;

  @BeforeEach
  void openBreakerOnDeadRedis() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    nowhere = new JedisPooled("127.0.0.1", closedPort);
    pipeliner = new Pipeliner(nowhere, 5_000, 1, 1, breaker);
    breaker.failed(new RuntimeException("Redis went away"), Breaker.FAILURES_TO_OPEN);
    clock.advance(Breaker.FIRST_PAUSE_MILLIS * 1000);
    assertThat(breaker.pass())
        .as("the pause is over: this is the probe")
        .isEqualTo(Breaker.Pass.PROBE);
  }

  @AfterEach
  void close() {
    pipeliner.close();
    nowhere.close();
  }

  @Test
  void aFailedHandoverKeepsTheBreakerOpenAndWhatIsOwed() {
    carry.remember("a", "f", HUNDRED, 30);
    carry.remember("b", "t", HUNDRED, 20);

    handover.run(pipeliner, "0");

    assertThat(breaker.isOpen()).isTrue();
    assertThat(carry.due())
        .extracting(o -> o.key + "=" + o.cost)
        .containsExactlyInAnyOrder("a=30", "b=20");
    // A failed probe: the next one waits twice as long.
    clock.advance(2 * Breaker.FIRST_PAUSE_MILLIS * 1000 - 1);
    assertThat(breaker.pass()).isEqualTo(Breaker.Pass.LOCAL);
    clock.advance(1);
    assertThat(breaker.pass()).isEqualTo(Breaker.Pass.PROBE);
  }

  @Test
  void nothingOwedClosesTheBreakerWithoutCallingRedis() {
    carry.remember("a", "f", HUNDRED, 30);
    clock.advance(MINUTE); // that window is over: nothing left to charge

    handover.run(pipeliner, "0");

    assertThat(breaker.isOpen()).as("no call was made, so none failed").isFalse();
  }
}
