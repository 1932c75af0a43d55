package dev.sluice.bench.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The redis-server every contender talks to: started here on a free loopback port (no persistence,
 * default settings otherwise) or one already running that the user points at. Also the admin
 * connection the driver reads server statistics through. Public for the agent's HTTP load driver
 * ({@code dev.sluice.bench.agent.AgentLoad}), whose Redis variant runs against it.
 */
public final class LocalRedis implements AutoCloseable {
  static final String HOST = "127.0.0.1";

  private final int port;
  private final Process process;
  private final Path dir;
  private final Jedis admin;

  private LocalRedis(int port, Process process, Path dir) {
    this.port = port;
    this.process = process;
    this.dir = dir;
    this.admin = new Jedis(HOST, port, 10_000);
  }

  /**
   * Starts {@code binary} on a free port of 127.0.0.1 and waits until it answers PING; {@code
   * extraConfig} lines follow the usual ones (e.g. {@code cluster-enabled yes}).
   */
  public static LocalRedis start(String binary, String... extraConfig)
      throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      port = socket.getLocalPort();
    }
    Path dir = Files.createTempDirectory("sluice-bench-redis-");
    Path config = dir.resolve("redis.conf");
    List<String> lines =
        new ArrayList<>(
            List.of(
                "port " + port,
                "bind " + HOST,
                "dir " + dir,
                "save \"\"",
                "appendonly no",
                "daemonize no",
                "logfile \"\""));
    lines.addAll(List.of(extraConfig));
    Files.write(config, lines, StandardCharsets.UTF_8);
    Process process =
        new ProcessBuilder(binary, config.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis.log").toFile())
            .start();
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      // Jedis connects in its constructor: made anew until the server listens (a cluster node
      // takes longer to start than the first try).
      LocalRedis redis = null;
      try {
        redis = new LocalRedis(port, process, dir);
        redis.admin.ping();
        return redis;
      } catch (JedisConnectionException e) {
        if (redis != null) {
          redis.admin.close();
        }
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.destroyForcibly(); // its directory stays, with the log the message points to
          throw new IllegalStateException("redis-server did not start; see " + dir, e);
        }
        Thread.sleep(50);
      }
    }
  }

  /** A server that is already running; {@link #close} leaves it running. */
  static LocalRedis attach(int port) {
    return new LocalRedis(port, null, null);
  }

  public int port() {
    return port;
  }

  Jedis admin() {
    return admin;
  }

  void flushAll() {
    admin.flushAll();
  }

  /** A numeric field of {@code INFO section}, e.g. {@code used_memory} of {@code memory}. */
  double info(String section, String field) {
    for (String line : admin.info(section).split("\r?\n")) {
      if (line.startsWith(field + ":")) {
        return Double.parseDouble(line.substring(field.length() + 1).trim());
      }
    }
    throw new IllegalStateException("INFO " + section + " has no " + field);
  }

  /** Keys of database 0 that have a TTL. */
  long expires() {
    Matcher m = Pattern.compile("db0:keys=\\d+,expires=(\\d+)").matcher(admin.info("keyspace"));
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  /**
   * The counters the driver divides by decisions: script calls (EVAL and EVALSHA, not the commands
   * scripts run), read events (one per request, or per pipeline) and Redis CPU seconds.
   */
  public Map<String, Double> stats() {
    String commands = admin.info("commandstats");
    return Map.of(
        "scripts", calls(commands, "eval") + calls(commands, "evalsha"),
        "reads", info("stats", "total_reads_processed"),
        "cpu", info("cpu", "used_cpu_user") + info("cpu", "used_cpu_sys"));
  }

  private static double calls(String commandstats, String command) {
    Matcher m = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(commandstats);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  /** Version, allocator and I/O threads of the server, for the report. */
  public String describe() {
    return "redis "
        + field(admin.info("server"), "redis_version")
        + ", "
        + field(admin.info("memory"), "mem_allocator")
        + ", io-threads "
        + admin.configGet("io-threads").get("io-threads");
  }

  private static String field(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return "?";
  }

  @Override
  public void close() {
    admin.close();
    if (process == null) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      try (var files = Files.walk(dir)) {
        files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
