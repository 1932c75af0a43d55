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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One start of a Tomcat distribution, from a fresh copy (so no run inherits another's compiled JSPs
 * or logs), with {@code bin/catalina.sh run} and the given CATALINA_OPTS; measures it and stops it
 * with SIGTERM. Every wait is bounded.
 */
final class TomcatRun {
  static final String HELLO = "/examples/servlets/servlet/HelloWorldExample";
  static final String JSP = "/examples/jsp/jsp2/el/basic-arithmetic.jsp";
  private static final Pattern STARTUP = Pattern.compile("Server startup in \\[?([0-9,.]+)\\]? m");
  private static final Pattern AGENT = Pattern.compile("Sluice: agent started in ([0-9]+) ms");
  private static final Duration START = Duration.ofSeconds(180);

  /** Of load before the memory is read: enough for every class a request uses to be loaded. */
  private static final Duration LOAD = Duration.ofSeconds(3);

  private static final int MOST_LOAD_REQUESTS = 50_000;

  /**
   * What one run measured, in milliseconds; agentMillis is -1 without the agent; rssKb is the
   * server's resident memory after {@link #LOAD} of requests and a full collection.
   */
  record Result(
      long tomcatMillis,
      long firstResponseMillis,
      long firstJspMillis,
      long agentMillis,
      long rssKb) {}

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final StringBuffer output = new StringBuffer();

  static Result run(Path distribution, String catalinaOpts) throws Exception {
    return new TomcatRun().measure(distribution, catalinaOpts);
  }

  private Result measure(Path distribution, String catalinaOpts) throws Exception {
    Path root = Files.createTempDirectory("sluice-startup-cost");
    Path home = root.resolve("tomcat");
    copyTree(distribution, home);
    int port = freePort();
    Path serverXml = home.resolve("conf/server.xml");
    Files.writeString(
        serverXml,
        Files.readString(serverXml)
            .replace("<Server port=\"8005\"", "<Server port=\"-1\"")
            .replace(
                "<Connector port=\"8080\" protocol=\"HTTP/1.1\"",
                "<Connector port=\"" + port + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\""));
    ProcessBuilder builder =
        new ProcessBuilder("/bin/sh", home.resolve("bin/catalina.sh").toString(), "run")
            .directory(home.toFile())
            .redirectErrorStream(true);
    String javaHome = System.getProperty("java.home");
    builder.environment().put("JAVA_HOME", javaHome);
    builder.environment().put("JRE_HOME", javaHome);
    builder.environment().put("CATALINA_HOME", home.toString());
    builder.environment().put("CATALINA_BASE", home.toString());
    builder.environment().put("CATALINA_OPTS", catalinaOpts);
    builder.environment().put("JAVA_OPTS", "");
    long started = System.nanoTime();
    Process process = builder.start();
    Thread reader = new Thread(() -> read(process), "tomcat-output");
    reader.setDaemon(true);
    reader.start();
    try {
      long firstResponse = untilOk(process, port, HELLO, started);
      long tomcat = number(STARTUP, "Server startup in");
      long jspStart = System.nanoTime();
      long firstJsp = untilOk(process, port, JSP, jspStart);
      long agent =
          catalinaOpts.contains("-javaagent") ? number(AGENT, "Sluice: agent started") : -1;
      load(port);
      return new Result(tomcat, firstResponse, firstJsp, agent, rssAfterFullGc(process.pid()));
    } finally {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        System.err.println("Tomcat did not stop within 30 s of SIGTERM; killed");
      }
      deleteTree(root);
    }
  }

  /** Milliseconds from {@code since} to the first 200 for {@code path}, polling every 10 ms. */
  private long untilOk(Process process, int port, String path, long since) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(START)
            .build();
    long deadline = since + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("Tomcat exited; its output:\n" + output);
      }
      try {
        HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return (System.nanoTime() - since) / 1_000_000;
        }
      } catch (ConnectException e) {
        // Not listening yet.
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException("no 200 for " + path + " within " + START + ":\n" + output);
  }

  /** {@link #LOAD} of requests one after another, at most {@link #MOST_LOAD_REQUESTS}. */
  private void load(int port) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + HELLO))
            .timeout(Duration.ofSeconds(5))
            .build();
    long end = System.nanoTime() + LOAD.toNanos();
    for (int i = 0; i < MOST_LOAD_REQUESTS && System.nanoTime() < end; i++) {
      client.send(request, HttpResponse.BodyHandlers.discarding());
    }
  }

  /**
   * The resident set of {@code pid} (catalina.sh run execs the JVM, so it is Tomcat's) after
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

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
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

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
