package dev.sluice.spring;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server process on a free loopback port, for a test that kills it. The it-tests harness
 * (it-tests/.../redis) does much more, on Testcontainers and Jedis, which this module does not
 * carry; this is the one thing needed here. No redis-server on the PATH fails the test.
 */
final class LocalRedis implements AutoCloseable {
  private final Process process;
  private final int port;

  private LocalRedis(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static LocalRedis start() throws IOException, InterruptedException {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Path log = Files.createTempFile("sluice-starter-redis", ".log");
    Process process =
        new ProcessBuilder(
                "redis-server",
                "--port",
                String.valueOf(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    LocalRedis redis = new LocalRedis(process, port);
    for (int i = 0; i < 100; i++) {
      if (redis.answers()) {
        return redis;
      }
      Thread.sleep(100);
    }
    redis.close();
    throw new IllegalStateException(
        "redis-server did not answer on " + port + ": " + Files.readString(log));
  }

  String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** Whether a PING is answered with PONG. */
  boolean answers() {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(1000);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = in.readNBytes(7);
      return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills the server at once, as a crash would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
