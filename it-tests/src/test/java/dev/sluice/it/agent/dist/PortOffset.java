package dev.sluice.it.agent.dist;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Moving a server's fixed default ports together: an offset that puts every one of them on a free
 * port of 127.0.0.1 (free when checked), so tests running beside each other do not collide.
 */
final class PortOffset {
  private PortOffset() {}

  /** An offset between 1,000 and 50,000 that puts all of {@code ports} on free ports. */
  static int free(List<Integer> ports) throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int offset = ThreadLocalRandom.current().nextInt(1_000, 50_000);
      if (ports.stream().allMatch(port -> free(port + offset))) {
        return offset;
      }
    }
    throw new IllegalStateException("no port offset with all of " + ports + " free");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
