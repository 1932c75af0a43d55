package dev.sluice.bench.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The example app on embedded Tomcat ({@code dev.sluice.example.Standalone}) in a JVM of its own,
 * listening on a free port of 127.0.0.1 only, its output in a log file.
 */
final class Server implements AutoCloseable {
  static final String HOST = "127.0.0.1";

  final Variant variant;
  final int port;
  final Path log;
  private final Process process;

  private Server(Variant variant, int port, Path log, Process process) {
    this.variant = variant;
    this.port = port;
    this.log = log;
    this.process = process;
  }

  /** The command that runs {@code variant}: the same JVM flags for all, then what differs. */
  static List<String> command(
      Variant variant, Layout layout, Configs configs, List<String> jvmFlags, int port, String cpus) {
    List<String> command = new ArrayList<>();
    if (cpus != null) {
      // Pinned from its start, so the JVM sizes its pools (and Sluice its senders) to these CPUs,
      // as in a container with a CPU limit.
      command.addAll(List.of("taskset", "-c", cpus));
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    switch (variant) {
      case NO_MATCH -> command.add(agent(layout, configs.noMatch));
      case MEMORY -> command.add(agent(layout, configs.allow));
      case REDIS -> command.add(agent(layout, configs.redis));
      case REDIS_LOCAL_FIRST -> command.add(agent(layout, configs.redisLocalFirst));
      default -> {}
    }
    command.add("-Dport=" + port);
    command.add("-Dsluice.example.address=" + HOST);
    Path webapp = variant == Variant.FILTER ? configs.filterWebapp : layout.webapp();
    command.add("-Dsluice.example.webapp=" + webapp);
    command.add("-cp");
    command.add(layout.classPath(variant == Variant.FILTER));
    command.add("dev.sluice.example.Standalone");
    return command;
  }

  private static String agent(Layout layout, Path config) {
    return "-javaagent:" + layout.agentJar() + "=config=" + config;
  }

  /**
   * Starts {@code variant} and waits (90 s at most) until GET {@code path} answers 200 with
   * rate-limit headers exactly when the variant limits it; on {@code cpus} ({@code taskset -c}
   * syntax) when not null.
   */
  static Server start(
      Variant variant,
      Layout layout,
      Configs configs,
      List<String> jvmFlags,
      Path dir,
      String path,
      String cpus)
      throws IOException, InterruptedException {
    int port = freePort();
    Path log = dir.resolve(variant.id + ".log");
    List<String> command = command(variant, layout, configs, jvmFlags, port, cpus);
    Files.writeString(log, String.join(" ", command) + "\n\n", StandardCharsets.UTF_8);
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    // Ctrl-C or a kill of the driver must not leave servers behind.
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
    Server server = new Server(variant, port, log, process);
    try {
      server.awaitReady(path);
      return server;
    } catch (IOException | InterruptedException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  long pid() {
    return process.pid();
  }

  String url(String path) {
    return "http://" + HOST + ":" + port + path;
  }

  private void awaitReady(String path) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException(variant.label + " ended at start; see " + log);
      }
      HttpURLConnection c = (HttpURLConnection) new URL(url(path)).openConnection();
      c.setConnectTimeout(1000);
      c.setReadTimeout(30_000);
      int status;
      try {
        status = c.getResponseCode();
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(variant.label + " did not answer in 90 s; see " + log);
        }
        Thread.sleep(200);
        continue;
      }
      String limit = c.getHeaderField("X-RateLimit-Limit");
      try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
        if (in != null) {
          in.readAllBytes();
        }
      }
      if (status == 429 && System.nanoTime() < deadline) {
        // The Redis store connects on the first decision; under load that can outlast its 50 ms
        // budget, and the rule fails closed. Later decisions find the connection ready.
        Thread.sleep(500);
        continue;
      }
      if (status != 200) {
        throw new IllegalStateException(
            variant.label + ": GET " + path + " answered " + status + "; see " + log);
      }
      String expected = variant.limited ? Long.toString(Configs.LIMIT) : null;
      if (expected == null ? limit != null : !expected.equals(limit)) {
        throw new IllegalStateException(
            variant.label
                + ": X-RateLimit-Limit is "
                + limit
                + ", expected "
                + expected
                + "; see "
                + log);
      }
      return;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(15, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
