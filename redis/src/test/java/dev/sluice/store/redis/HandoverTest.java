package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Quota;
import dev.sluice.metrics.RoundTrips;
import dev.sluice.store.ManualClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;

/**
 * The handover's failure side, against a port nothing listens on (connections are refused at once);
 * its success side needs a real Redis and is in the it-tests' HandoverIT.
 */
class HandoverTest {
  private static final long MINUTE = 60 * ManualClock.SECOND;
  private static final Quota HUNDRED = Quota.of(100, MINUTE, 100);

  private final ManualClock clock = new ManualClock(10 * MINUTE);
  private final ShardBreakers breakers = new ShardBreakers(clock, "nowhere");
  private final Breaker breaker = breakers.whole();
  private final LocalLedger ledger = new LocalLedger(clock);
  private final Handover handover = new Handover(ledger, breakers);
  private JedisPooled nowhere;
  private Pipeliner pipeliner;

  @BeforeEach
  void openBreakerOnDeadRedis() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    nowhere = new JedisPooled("127.0.0.1", closedPort);
    pipeliner = new Pipeliner(nowhere, 5_000, 1, 1, new RoundTrips(clock::micros));
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
    ledger.remember("a", "f", HUNDRED, 30);
    ledger.remember("b", "t", HUNDRED, 20);

    handover.run(pipeliner, "0", breaker);

    assertThat(breaker.isOpen()).isTrue();
    assertThat(ledger.due())
        .extracting(o -> o.key + "=" + o.cost)
        .containsExactlyInAnyOrder("a=30", "b=20");
    // A failed probe: the next one waits twice as long.
    clock.advance(2 * Breaker.FIRST_PAUSE_MILLIS * 1000 - 1);
    assertThat(breaker.pass()).isEqualTo(Breaker.Pass.LOCAL);
    clock.advance(1);
    assertThat(breaker.pass()).isEqualTo(Breaker.Pass.PROBE);
  }

  /**
   * What was owed ended before the probe: nothing is sent, so nothing is known of Redis (here it is
   * dead). The breaker stays open and the next request probes with a call of its own; closing it
   * would make the breaker flap on a dead Redis, each close costing requests a timeout.
   */
  @Test
  void nothingOwedLeavesTheBreakerOpenForARequestToProbe() {
    ledger.remember("a", "f", HUNDRED, 30);
    clock.advance(MINUTE); // that window is over: nothing left to charge
    assertThat(handover.owes(breaker)).as("an ended window owes nothing").isFalse();

    handover.run(pipeliner, "0", breaker);

    assertThat(breaker.isOpen()).as("only an answer from Redis closes it").isTrue();
    assertThat(breaker.pass()).as("the probe is free again").isEqualTo(Breaker.Pass.PROBE);
  }

  /**
   * On Redis Cluster a master's probe charges what its own keys owe; keys of another master that is
   * failing too wait for that master's probe (here they would fail: nothing listens).
   */
  @Test
  void aMastersProbeLeavesWhatAnotherFailingMasterIsOwed() {
    HostAndPort first = new HostAndPort("127.0.0.1", 7001);
    HostAndPort second = new HostAndPort("127.0.0.1", 7002);
    breakers.locate(new Slots().serve(1, first).serve(2, second));
    Breaker probed = breakers.of("1x");
    Breaker other = breakers.of("2x");
    for (Breaker b : new Breaker[] {probed, other}) {
      b.failed(new RuntimeException("master went away"), Breaker.FAILURES_TO_OPEN);
    }
    ledger.remember("2x", "f", HUNDRED, 30);
    clock.advance(Breaker.FIRST_PAUSE_MILLIS * 1000);
    assertThat(probed.pass()).isEqualTo(Breaker.Pass.PROBE);
    assertThat(handover.owes(probed)).isFalse();
    assertThat(handover.owes(other)).isTrue();

    handover.run(pipeliner, "0", probed);

    assertThat(probed.isOpen()).as("nothing of its own was sent: no answer").isTrue();
    assertThat(probed.pass()).as("a request probes it instead").isEqualTo(Breaker.Pass.PROBE);
    assertThat(other.isOpen()).isTrue();
    assertThat(ledger.due()).extracting(o -> o.key + "=" + o.cost).containsExactly("2x=30");
  }
}
