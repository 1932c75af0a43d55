package dev.sluice.it.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server process the harness started: on 127.0.0.1 only, on a port of its own, in a temp
 * directory of its own (config, log, nodes.conf) that close() deletes. Nothing is persisted. A
 * shutdown hook kills whatever is still running when the JVM exits; a JVM killed with SIGKILL
 * leaves its servers behind, as nothing in the JVM runs then.
 */
public final class RedisProcess implements RedisServer {
  static final String HOST = "127.0.0.1";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);
  private static final int START_TRIES = 5;

  /** What the process runs as; a cluster node needs its bus port free too. */
  enum Kind {
    SERVER,
    CLUSTER_NODE,
    SENTINEL
  }

  private final String name;
  private final Kind kind;
  private final RedisBinary binary;
  private final int port;
  private final Path dir;
  private final Path config;
  private final Path log;
  private final String password;
  private volatile Process process;

  private RedisProcess(
      String name,
      Kind kind,
      RedisBinary binary,
      int port,
      List<String> extraConfig,
      String password) {
    this.name = name;
    this.kind = kind;
    this.binary = binary;
    this.port = port;
    this.password = password;
    try {
      this.dir = Files.createTempDirectory("sluice-" + name + "-");
      this.config = dir.resolve(kind == Kind.SENTINEL ? "sentinel.conf" : "redis.conf");
      this.log = dir.resolve("redis.log");
      Files.write(config, configLines(extraConfig), UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare a directory for " + name, e);
    }
  }

  /**
   * A standalone server of {@link RedisBinary#local()} (the PATH's redis-server, else the bundled
   * one) on a free loopback port, answering PING: for a test that kills, pauses or restarts it.
   * Close it when done.
   */
  public static RedisProcess startLocal() {
    return start(RedisBinary.local(), "standalone", Kind.SERVER, List.of());
  }

  /**
   * Starts a server on a free port and waits until it answers PING. {@code extraConfig} lines go
   * after the harness's own, so they may override them. Retries on another port if the chosen one
   * was taken meanwhile; any other failure is thrown with the tail of the log.
   */
  static RedisProcess start(RedisBinary binary, String name, Kind kind, List<String> extraConfig) {
    return start(binary, name, kind, extraConfig, null);
  }

  /** {@link #start(RedisBinary, String, Kind, List)} with {@code requirepass}, unless null. */
  static RedisProcess start(
      RedisBinary binary, String name, Kind kind, List<String> extraConfig, String requirepass) {
    RuntimeException portTaken = null;
    for (int i = 0; i < START_TRIES; i++) {
      int port = kind == Kind.CLUSTER_NODE ? Ports.freeWithBusPort() : Ports.free();
      RedisProcess server = new RedisProcess(name, kind, binary, port, extraConfig, requirepass);
      try {
        server.launch();
        return server;
      } catch (RuntimeException e) {
        boolean taken = server.logTail(20).contains("Address already in use");
        server.close();
        if (!taken) {
          throw e;
        }
        portTaken = e;
      }
    }
    throw new IllegalStateException(name + ": every port tried was taken", portTaken);
  }

  @Override
  public String host() {
    return HOST;
  }

  @Override
  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path logFile() {
    return log;
  }

  /** The last {@code lines} lines of the log (redis-server's stdout and stderr). */
  public String logTail(int lines) {
    try {
      List<String> all = Files.exists(log) ? Files.readAllLines(log, UTF_8) : List.of();
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  @Override
  public String describe() {
    Process p = process;
    String state = p == null ? "not started" : "pid " + p.pid() + (p.isAlive() ? "" : ", exited");
    return String.format(
        "%s (redis-server %s, %s, %s:%d, log %s)%n  last lines of its log:%n    %s",
        name, binary.version(), state, HOST, port, log, logTail(15).replace("\n", "\n    "));
  }

  @Override
  public void pause() {
    Processes.signal(process, "STOP", describe());
  }

  @Override
  public void resume() {
    Processes.signal(process, "CONT", describe());
  }

  @Override
  public void kill() {
    Process p = process;
    p.destroyForcibly();
    try {
      if (!p.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("SIGKILL did not end " + describe());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted killing " + name, e);
    }
    Processes.forget(p);
  }

  @Override
  public void restart() {
    kill();
    launch();
  }

  @Override
  public void close() {
    if (process != null) {
      kill();
    }
    Processes.deleteTree(dir);
  }

  @Override
  public String toString() {
    return name + "@" + HOST + ":" + port;
  }

  private void launch() {
    List<String> command = new ArrayList<>(List.of(binary.path().toString(), config.toString()));
    if (kind == Kind.SENTINEL) {
      command.add("--sentinel");
    }
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
    Processes.watch(process, dir);
    Process started = process;
    // The PID check makes sure the answer comes from this process, not another one on the port.
    Await.until(
        name + " on " + HOST + ":" + port + " to answer PING",
        READY_TIMEOUT,
        () -> {
          if (!started.isAlive()) {
            throw new Await.GiveUp("exited with code " + started.exitValue() + ": " + describe());
          }
          try (RedisProbe probe = RedisProbe.connect(HOST, port, Duration.ofSeconds(1))) {
            if (password != null) {
              probe.call("AUTH", password);
            }
            return "PONG".equals(probe.call("PING"))
                && String.valueOf(started.pid()).equals(probe.info("server").get("process_id"));
          }
        },
        this::describe);
  }

  /** The harness's settings; redis-server logs to stdout, which goes to the log file. */
  private List<String> configLines(List<String> extra) {
    List<String> lines = new ArrayList<>();
    lines.add("port " + port);
    lines.add("bind " + HOST);
    lines.add("dir " + dir);
    lines.add("logfile \"\"");
    lines.add("daemonize no");
    if (kind != Kind.SENTINEL) {
      lines.add("save \"\"");
      lines.add("appendonly no");
      // A replica syncs at once, not after the default 5 s wait for more replicas to batch.
      lines.add("repl-diskless-sync-delay 0");
      // Redis 7 refuses DEBUG (SLEEP, OBJECT...) unless allowed; tests use it. Redis 6.2 allows
      // it, and refuses to start on a directive it does not know.
      if (binary.major() >= 7) {
        lines.add("enable-debug-command yes");
      }
    }
    if (password != null) {
      lines.add("requirepass " + quoted(password));
    }
    lines.addAll(extra);
    return lines;
  }

  /** A value for redis.conf, every byte but ASCII letters and digits as a {@code \xHH} escape. */
  private static String quoted(String value) {
    StringBuilder quoted = new StringBuilder("\"");
    for (byte b : value.getBytes(UTF_8)) {
      if (b > 0 && Character.isLetterOrDigit(b)) {
        quoted.append((char) b);
      } else {
        quoted.append(String.format("\\x%02x", b & 0xff));
      }
    }
    return quoted.append('"').toString();
  }
}
