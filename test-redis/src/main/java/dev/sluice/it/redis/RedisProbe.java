package dev.sluice.it.redis;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal RESP2 client over a plain socket, so tests can ask a server about itself (INFO, CLUSTER
 * INFO, DBSIZE, MEMORY USAGE, DEBUG SLEEP...) without a Redis client library. Replies: simple and
 * bulk strings as String, integers as Long, arrays as List, nil as null. An error reply is thrown
 * as {@link ErrorReply}; inside an array it is returned as one, so the stream stays in step. Socket
 * trouble, a read timeout included, is an UncheckedIOException whose cause says which. One command
 * at a time; not thread-safe.
 */
public final class RedisProbe implements AutoCloseable {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  private final String address;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RedisProbe(String address, Socket socket) throws IOException {
    this.address = address;
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  /** Connects with {@link #DEFAULT_TIMEOUT} for both the connect and each reply. */
  public static RedisProbe connect(String host, int port) {
    return connect(host, port, DEFAULT_TIMEOUT);
  }

  /** Connects with {@code timeout} for both the connect and each reply. */
  public static RedisProbe connect(String host, int port, Duration timeout) {
    String address = host + ":" + port;
    Socket socket = new Socket();
    try {
      socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      socket.setTcpNoDelay(true);
      return new RedisProbe(address, socket);
    } catch (IOException e) {
      close(socket);
      throw new UncheckedIOException("cannot connect to Redis at " + address + ": " + e, e);
    }
  }

  /** Opens a connection, sends one command, closes. */
  public static Object once(String host, int port, String... command) {
    try (RedisProbe probe = connect(host, port)) {
      return probe.call(command);
    }
  }

  /** Sends one command and returns its reply. */
  public Object call(String... command) {
    try {
      write(command);
      return read(true);
    } catch (IOException e) {
      throw new UncheckedIOException(command[0] + " to " + address + " failed: " + e, e);
    }
  }

  /** A command whose reply is a string (simple or bulk), or null. */
  public String callString(String... command) {
    return (String) call(command);
  }

  /** A command whose reply is an integer. */
  public long callLong(String... command) {
    return (Long) call(command);
  }

  /**
   * The {@code key:value} lines of INFO, for the sections asked (all if none). One INFO per section:
   * a Redis before 7 (the bundled 6.2) answers INFO with several sections by a syntax error.
   */
  public Map<String, String> info(String... sections) {
    if (sections.length == 0) {
      return fields(callString("INFO"));
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (String section : sections) {
      fields.putAll(fields(callString("INFO", section)));
    }
    return fields;
  }

  /** Parses the {@code key:value} lines of INFO or CLUSTER INFO text; other lines are skipped. */
  public static Map<String, String> fields(String text) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : text.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return fields;
  }

  /** Changes how long each later reply may take. */
  public void timeout(Duration timeout) {
    try {
      socket.setSoTimeout((int) timeout.toMillis());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    close(socket);
  }

  private void write(String[] command) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    buffer.write(("*" + command.length + "\r\n").getBytes(US_ASCII));
    for (String argument : command) {
      byte[] bytes = argument.getBytes(UTF_8);
      buffer.write(("$" + bytes.length + "\r\n").getBytes(US_ASCII));
      buffer.write(bytes);
      buffer.write('\r');
      buffer.write('\n');
    }
    out.write(buffer.toByteArray());
    out.flush();
  }

  private Object read(boolean topLevel) throws IOException {
    int type = in.read();
    if (type == -1) {
      throw new EOFException("connection closed by the server");
    }
    String line = readLine();
    switch (type) {
      case '+':
        return line;
      case '-':
        ErrorReply error = new ErrorReply(address, line);
        if (topLevel) {
          throw error;
        }
        return error;
      case ':':
        return Long.parseLong(line);
      case '$':
        int length = Integer.parseInt(line);
        if (length < 0) {
          return null;
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length || !readLine().isEmpty()) {
          throw new EOFException("bulk string cut short");
        }
        return new String(bytes, UTF_8);
      case '*':
        int count = Integer.parseInt(line);
        if (count < 0) {
          return null;
        }
        List<Object> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          items.add(read(false));
        }
        return items;
      default:
        throw new IOException("not a RESP2 reply: '" + (char) type + line + "'");
    }
  }

  private String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\r'; b = in.read()) {
      if (b == -1) {
        throw new EOFException("connection closed mid-reply");
      }
      line.write(b);
    }
    if (in.read() != '\n') {
      throw new IOException("CR without LF in a reply");
    }
    return line.toString(UTF_8);
  }

  private static void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Nothing to do about a socket that will not close.
    }
  }

  /**
   * An error reply from the server, e.g. {@code ERR unknown command} or {@code MOVED 42 host:port}.
   */
  public static final class ErrorReply extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String reply;

    ErrorReply(String address, String reply) {
      super(reply + " (from " + address + ")");
      this.reply = reply;
    }

    /** The error line as the server sent it, without the leading '-'. */
    public String reply() {
      return reply;
    }
  }
}
