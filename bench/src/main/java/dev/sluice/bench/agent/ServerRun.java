package dev.sluice.bench.agent;

import dev.sluice.it.agent.dist.RunningServer;
import dev.sluice.it.agent.dist.SupportedServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One start of a server the agent is tested on, as its integration test starts it ({@link
 * SupportedServer}: a fresh copy of what the server writes to, so no run inherits another's
 * compiled JSPs, deployments or logs), with the given JVM options (the agent flag, or none);
 * measures it and stops it as an operator does. Every wait is bounded.
 */
final class ServerRun {
  private static final Duration START = Duration.ofSeconds(240);
  private static final Pattern AGENT = Pattern.compile("Sluice: agent started in ([0-9]+) ms");

  /** Of load before the memory is read: enough for every class a request uses to be loaded. */
  private static final Duration LOAD = Duration.ofSeconds(3);

  private static final int MOST_LOAD_REQUESTS = 50_000;

  /**
   * What one run measured, in milliseconds: the server's own start-up line (-1 where it has none),
   * process start to the first 200 in wall time and in the server JVM's CPU time (user + system,
   * all its threads), the first JSP (-1 where the server has none to ask for), the agent's start
   * (-1 without it, or where the server writes it only to a log file); rssKb is the server's
   * resident memory after {@link #LOAD} of requests and a full collection.
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
  private final SupportedServer server;

  ServerRun(SupportedServer server) {
    this.server = server;
  }

  Result run(List<String> jvmOptions) throws Exception {
    long started = System.nanoTime();
    RunningServer running = server.start(jvmOptions);
    try {
      long firstResponse = untilOk(running, server.limitedPath(), started);
      long jvm = running.javaPid();
      long cpu = Math.round(Cpu.Times.of(jvm).total() * 1000);
      long serverMillis =
          server.startedIn() == null
              ? -1
              : number(running, server.startedIn(), "the server's start-up line");
      long firstJsp = -1;
      if (server.jsp() != null) {
        firstJsp = untilOk(running, server.jsp(), System.nanoTime());
      }
      load(running.port());
      long rss = rssAfterFullGc(jvm);
      Matcher agent = AGENT.matcher(running.process().output());
      return new Result(
          serverMillis,
          firstResponse,
          cpu,
          firstJsp,
          agent.find() ? Long.parseLong(agent.group(1)) : -1,
          rss);
    } finally {
      running.stopAndDelete();
    }
  }

  /** Milliseconds from {@code since} to the first 200 for {@code path}, polling every 10 ms. */
  private long untilOk(RunningServer running, String path, long since) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.port() + path))
            .timeout(START)
            .build();
    long deadline = since + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!alive(running)) {
        throw new IllegalStateException("the server exited; its output:\n" + output(running));
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
        if (!alive(running)) {
          throw new IllegalStateException(
              "the server exited; its output:\n" + output(running), e);
        }
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException(
        "no 200 for " + path + " within " + START + ":\n" + output(running));
  }

  private static boolean alive(RunningServer running) {
    return ProcessHandle.of(running.process().pid()).map(ProcessHandle::isAlive).orElse(false);
  }

  private static String output(RunningServer running) {
    return running.process().output();
  }

  /** {@link #LOAD} of requests one after another, at most {@link #MOST_LOAD_REQUESTS}. */
  private void load(int port) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + server.limitedPath()))
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
  private static long number(RunningServer running, Pattern pattern, String what)
      throws InterruptedException {
    for (int i = 0; i < 1000; i++) {
      Matcher matcher = pattern.matcher(output(running));
      if (matcher.find()) {
        return Long.parseLong(matcher.group(1).replaceAll("[,.]", ""));
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException(
        "no \"" + what + "\" line in the output:\n" + output(running));
  }
}
