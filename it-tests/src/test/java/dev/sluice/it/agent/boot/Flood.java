package dev.sluice.it.agent.boot;

import dev.sluice.it.Http;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code connections} clients on loopback, each sending one request at a time on a connection of
 * its own ({@code Connection: close}) to one path and, once answered, the next after {@link
 * #PAUSE_MILLIS} (a client retrying), for {@code millis} at most and {@link #MAX_PER_CONNECTION}
 * requests each at most: a flood bounded in count and in time that lasts as long as it is timed.
 * Counts what came back by status.
 */
final class Flood implements AutoCloseable {
  private static final int MAX_PER_CONNECTION = 20;
  private static final long PAUSE_MILLIS = 500;

  private final AtomicInteger served = new AtomicInteger();
  private final AtomicInteger denied = new AtomicInteger();
  private final AtomicInteger failures = new AtomicInteger();
  private final List<Thread> clients = new ArrayList<>();
  private volatile boolean stopped;
  private long deadline;

  private Flood() {}

  /** Starts the flood on {@code path}, every connection on behalf of {@code client}. */
  static Flood start(Http http, String path, String client, int connections, long millis) {
    Flood flood = new Flood();
    URI uri = URI.create(http.url(path));
    byte[] request =
        ("GET "
                + path
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: "
                + client
                + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    flood.deadline = System.nanoTime() + millis * 1_000_000;
    long deadline = flood.deadline;
    for (int i = 0; i < connections; i++) {
      Thread t = new Thread(null, () -> flood.send(uri, request, deadline), "flood-" + i, 64 << 10);
      t.setDaemon(true);
      flood.clients.add(t);
      t.start();
    }
    return flood;
  }

  private void send(URI uri, byte[] request, long deadline) {
    for (int i = 0; i < MAX_PER_CONNECTION && !stopped && System.nanoTime() < deadline; i++) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(request);
        out.flush();
        String status = statusLine(socket.getInputStream());
        if (status.startsWith("HTTP/1.1 200")) {
          served.incrementAndGet();
        } else if (status.startsWith("HTTP/1.1 429")) {
          denied.incrementAndGet();
        } else {
          failures.incrementAndGet();
        }
      } catch (Exception e) {
        failures.incrementAndGet();
      }
      try {
        Thread.sleep(PAUSE_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * The status line, once the whole response is read: by its {@code Content-Length}, or to its
   * last chunk. Not to the end of the stream: a server may keep the connection open a while.
   */
  private static String statusLine(InputStream in) throws IOException {
    String status = line(in);
    long length = -1;
    boolean chunked = false;
    for (String header = line(in); !header.isEmpty(); header = line(in)) {
      String lower = header.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Long.parseLong(lower.substring("content-length:".length()).trim());
      }
      chunked |= lower.startsWith("transfer-encoding:") && lower.contains("chunked");
    }
    if (chunked) {
      for (String size = line(in); !size.equals("0"); size = line(in)) {
        in.skipNBytes(Long.parseLong(size.trim(), 16) + 2);
      }
      line(in);
    } else if (length > 0) {
      in.skipNBytes(length);
    }
    return status;
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0 && c != '\n') {
      line.append((char) c);
    }
    if (c < 0 && line.length() == 0) {
      throw new EOFException("the response ended early");
    }
    return line.toString().trim();
  }

  /** Whether the flood's time is not over yet. */
  boolean lasts() {
    return System.nanoTime() < deadline;
  }

  /** Waits for every client to end (each ends by the deadline, or its reads time out). */
  void awaitEnd() throws InterruptedException {
    for (Thread t : clients) {
      t.join(20_000);
    }
  }

  int denied() {
    return denied.get();
  }

  int failures() {
    return failures.get();
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    awaitEnd();
  }

  @Override
  public String toString() {
    return served + " served, " + denied + " denied, " + failures + " failed";
  }
}
