package dev.sluice.it.redis;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Free loopback ports, found by binding port 0 on 127.0.0.1 and closing. Another process may still
 * take one before the server binds it; {@link RedisProcess} retries on "Address already in use". A
 * port is handed out once per JVM, so two servers of the harness never race for the same one.
 */
public final class Ports {
  /** Redis Cluster's bus port is the client port plus this. */
  static final int BUS_OFFSET = 10000;

  private static final InetAddress LOOPBACK = loopback();
  private static final int TRIES = 200;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private Ports() {}

  public static int free() {
    for (int i = 0; i < TRIES; i++) {
      int port = bindAny();
      if (HANDED_OUT.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free loopback port after " + TRIES + " tries");
  }

  /** A port whose bus port ({@code port + 10000}) is free too, for a cluster node. */
  static int freeWithBusPort() {
    for (int i = 0; i < TRIES; i++) {
      int port = bindAny();
      int bus = port + BUS_OFFSET;
      if (bus <= 65535 && isFree(bus) && !HANDED_OUT.contains(bus) && HANDED_OUT.add(port)) {
        HANDED_OUT.add(bus);
        return port;
      }
    }
    throw new IllegalStateException(
        "no free loopback port with a free bus port (+"
            + BUS_OFFSET
            + ") after "
            + TRIES
            + " tries");
  }

  private static InetAddress loopback() {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    } catch (IOException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static int bindAny() {
    try (ServerSocket socket = new ServerSocket(0, 1, LOOPBACK)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("cannot bind a loopback port: " + e, e);
    }
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, LOOPBACK)) {
      return socket.isBound();
    } catch (IOException e) {
      return false;
    }
  }
}
