package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Connecting to a Redis Cluster that no seed answers for: the store's maintenance tries it every
 * second and the published rules every poll, so whatever one failed attempt leaves behind would
 * pile up by thousands an hour.
 */
class ClusterConnectTest {
  @Test
  void aConnectNoSeedAnswersLeavesNoThreadBehind() throws IOException {
    RedisSettings settings =
        RedisSettings.cluster(List.of(URI.create("redis://127.0.0.1:" + closedPort())), 200, 4);
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(settings::connect).isInstanceOf(JedisException.class);
    }
    Set<Thread> after = new HashSet<>(Thread.getAllStackTraces().keySet());
    after.removeAll(before);
    assertThat(after.stream().filter(Thread::isAlive).map(ClusterConnectTest::describe))
        .as("threads started by five failed connects and still alive")
        .isEmpty();
  }

  private static String describe(Thread thread) {
    return thread.getName() + (thread.isDaemon() ? " (daemon)" : "");
  }

  /** A loopback port nothing listens on: bound by the system, then closed. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
