package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.RoundTrips;
import dev.sluice.store.ManualClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/**
 * A store closed while its maintenance is still connecting (a connect waits up to the timeout per
 * seed, longer than the close waits for it): the client that connect brings back afterwards is
 * closed with its sender threads, not left running for good with the web application's classes.
 */
class MaintenanceCloseTest {
  @Test
  void aClientConnectedAfterTheCloseIsClosed() throws Exception {
    ManualClock clock = new ManualClock(1_800_000_000L * ManualClock.SECOND);
    CountDownLatch connecting = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<JedisPooled> made = new AtomicReference<>();
    AtomicInteger attempts = new AtomicInteger();
    int port = closedPort();
    Supplier<UnifiedJedis> connector =
        () -> {
          if (attempts.incrementAndGet() == 1) {
            throw new IllegalStateException("down at start"); // on the opening thread
          }
          connecting.countDown();
          awaitIgnoringInterrupts(release); // as a socket connect does
          made.set(new JedisPooled("127.0.0.1", port));
          return made.get();
        };
    Maintenance maintenance =
        new Maintenance(
            connector,
            100,
            new ShardBreakers(clock, "test"),
            new LocalDenials(clock),
            new LocalLedger(clock),
            new Fleet("p", 1, 1),
            ScriptTime.REDIS,
            new RoundTrips(clock::micros));
    assertThat(connecting.await(10, TimeUnit.SECONDS)).as("the maintenance connects").isTrue();
    maintenance.close();
    release.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while ((made.get() == null || !made.get().getPool().isClosed() || sendersAlive())
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(made.get()).as("the late connect came back").isNotNull();
    assertThat(made.get().getPool().isClosed()).as("its client closed").isTrue();
    assertThat(sendersAlive()).as("its sender threads alive").isFalse();
  }

  private static boolean sendersAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.isAlive() && t.getName().startsWith("sluice-redis-pipeline-"));
  }

  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException e) {
        // a connect in progress does not answer to interrupts
      }
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
