package dev.sluice.bench.agent;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One start of a server distribution, from a fresh copy of what the server writes to (so no run
 * inherits another's compiled JSPs, deployments or logs), with the given JVM options (the agent
 * flag, or none); measures it and stops it with SIGTERM. Every wait is bounded. {@link TomcatRun}
 * and {@link WildFlyRun} say how each server is set up and started.
 */
abstract class ServerRun {
  private static final Duration START = Duration.ofSeconds(240);
  private static final Pattern AGENT = Pattern.compile("Sluice: agent started in ([0-9]+) ms");

  /** Of load before the memory is read: enough for every class a request uses to be loaded. */
  private static final Duration LOAD = Duration.ofSeconds(3);

  private static final int MOST_LOAD_REQUESTS = 50_000;

  /**
   * What one run measured, in milliseconds: the server's own start-up line, process start to the
   * first 200 in wall time and in the server JVM's CPU time (user + system, all its threads), the
   * first JSP (-1 where the server has none to ask for), the agent's start (-1 without it); rssKb
   * is the server's resident memory after {@link #LOAD} of requests and a full collection.
   */
  record Result(
      long serverMillis,
      long firstResponseMillis,
      long cpuMillis,
      long firstJspMillis,
      long agentMillis,
      long rssKb) {}

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final StringBuffer output = new StringBuffer();

  /** The path of the first request, which a rule limits when the agent runs. */
  abstract String hello();

  /** A JSP to ask for after the first 200 (Jasper compiles it), or null. */
  abstract String jsp();

  /** The server's own start-up line, its milliseconds in group 1. */
  abstract Pattern serverStarted();

  /**
   * Copies what the server writes to under {@code root}, moves it to free loopback ports, and
   * returns how to start it with {@code jvmOptions} added to its own.
   */
  abstract ProcessBuilder prepare(Path root, String jvmOptions) throws IOException;

  /** The port of {@link #hello}, once prepared. */
  abstract int port();

  /** The server's JVM among {@code started} and what it started. */
  abstract long jvmPid(Process started);

  final Result run(String jvmOptions) throws Exception {
    Path root = Files.createTempDirectory("sluice-startup-cost");
    ProcessBuilder builder = prepare(root, jvmOptions).redirectErrorStream(true);
    String javaHome = System.getProperty("java.home");
    builder.environment().put("JAVA_HOME", javaHome);
    builder.environment().put("JDK_JAVA_OPTIONS", "");
    builder.environment().put("JAVA_TOOL_OPTIONS", "");
    long started = System.nanoTime();
    Process process = builder.start();
    Thread reader = new Thread(() -> read(process), "server-output");
    reader.setDaemon(true);
    reader.start();
    try {
      long firstResponse = untilOk(process, hello(), started);
      long jvm = jvmPid(process);
      long cpu = Math.round(Cpu.Times.of(jvm).total() * 1000);
      long server = number(serverStarted(), "the server's start-up line");
      long firstJsp = -1;
      if (jsp() != null) {
        long jspStart = System.nanoTime();
        firstJsp = untilOk(process, jsp(), jspStart);
      }
      long agent =
          jvmOptions.contains("-javaagent") ? number(AGENT, "Sluice: agent started") : -1;
      load();
      return new Result(server, firstResponse, cpu, firstJsp, agent, rssAfterFullGc(jvm));
    } finally {
      stop(process);
      deleteTree(root);
    }
  }

  /** SIGTERM to what was started, and a wait for it and all it started to end. */
  private static void stop(Process process) throws InterruptedException {
    List<ProcessHandle> started = process.descendants().toList();
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      System.err.println("the server did not stop within 30 s of SIGTERM; killed");
    }
    for (ProcessHandle left : started) {
      if (left.isAlive()) {
        left.destroyForcibly();
      }
    }
  }

  /** Milliseconds from {@code since} to the first 200 for {@code path}, polling every 10 ms. */
  private long untilOk(Process process, String path, long since) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
            .timeout(START)
            .build();
    long deadline = since + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the server exited; its output:\n" + output);
      }
      try {
        HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return (System.nanoTime() - since) / 1_000_000;
        }
      } catch (ConnectException e) {
        // Not listening yet.
      } catch (IOException e) {
        // Something else answered on the port (another process took it after the check): the
        // server cannot bind there, and the deadline says so with its output.
        if (!process.isAlive()) {
          throw new IllegalStateException("the server exited; its output:\n" + output, e);
        }
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException("no 200 for " + path + " within " + START + ":\n" + output);
  }

  /** {@link #LOAD} of requests one after another, at most {@link #MOST_LOAD_REQUESTS}. */
  private void load() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + hello()))
            .timeout(Duration.ofSeconds(5))
            .build();
    long end = System.nanoTime() + LOAD.toNanos();
    for (int i = 0; i < MOST_LOAD_REQUESTS && System.nanoTime() < end; i++) {
      client.send(request, HttpResponse.BodyHandlers.discarding());
    }
  }

  /**
   * The resident set of {@code pid} after
   * {@code jcmd GC.run}, from /proc: what a container's memory limit counts.
   */
  private static long rssAfterFullGc(long pid) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process gc =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!gc.waitFor(30, TimeUnit.SECONDS)) {
      gc.destroyForcibly();
      throw new IllegalStateException("jcmd GC.run did not end within 30 s");
    }
    Thread.sleep(500);
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IllegalStateException("no VmRSS in /proc/" + pid + "/status");
  }

  /** A number from a log line, waiting up to 10 s for the output reader to catch up. */
  private long number(Pattern pattern, String what) throws InterruptedException {
    for (int i = 0; i < 1000; i++) {
      Matcher matcher = pattern.matcher(output);
      if (matcher.find()) {
        return Long.parseLong(matcher.group(1).replaceAll("[,.]", ""));
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException("no \"" + what + "\" line in the output:\n" + output);
  }

  private void read(Process process) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        output.append(line).append('\n');
      }
    } catch (IOException e) {
      output.append("(output unreadable: ").append(e).append(")\n");
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      paths.forEach(
          source -> {
            Path target = to.resolve(from.relativize(source).toString());
            try {
              if (Files.isDirectory(source)) {
                Files.createDirectories(target);
              } else {
                Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }
  }

  static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
