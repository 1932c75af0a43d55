package dev.sluice.bench.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** wrk (the Debian package), run for a fixed time against one URL, and what it printed. */
final class Wrk {
  private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern TOTAL = Pattern.compile("(\\d+) requests in ([0-9.]+)(us|ms|s|m)");
  private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
  private static final Pattern SOCKET =
      Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
  private static final Pattern WRONG = Pattern.compile("Wrong answers: (\\d+)");

  private final String binary;

  Wrk(String binary) {
    this.binary = binary;
  }

  /** Fails with how to install wrk when {@code binary} cannot be run. */
  String check() throws InterruptedException {
    String out;
    try {
      Process p = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot run " + binary + " (" + e.getMessage() + "): install wrk first (Debian:"
              + " apt-get install -y wrk) or name it with --wrk=PATH");
    }
    // `wrk --version` prints its banner and usage and exits 1.
    String first = out.lines().findFirst().orElse("");
    if (!first.startsWith("wrk ")) {
      throw new IllegalStateException(binary + " does not look like wrk: " + out);
    }
    return first.replaceFirst(" Copyright.*", "");
  }

  /** What one run measured; latencies in microseconds. */
  record Result(
      double perSecond,
      long requests,
      double p50,
      double p75,
      double p90,
      double p99,
      long non2xx,
      long socketErrors,
      long wrongAnswers,
      double cpuSeconds,
      String output) {}

  /**
   * Runs {@code wrk -tT -cC -dSs --latency [-s script] url}, bounded: killed if it is not done 30 s
   * after its duration. Its CPU time is read from this JVM's ended-children counters, so nothing
   * else may end meanwhile. A {@code script} (or null) is one of {@link Configs}', which counts the
   * answers that are not as expected.
   */
  Result run(String url, int threads, int connections, int seconds, Path script)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(
        List.of(binary, "-t" + threads, "-c" + connections, "-d" + seconds + "s", "--latency"));
    if (script != null) {
      command.add("-s");
      command.add(script.toString());
    }
    command.add(url);
    double cpuBefore = Cpu.endedChildren();
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] bytes;
    try {
      // wrk prints its summary at the end only, so reading to the end is waiting for it; the
      // watchdog bounds that wait.
      Thread watchdog =
          new Thread(
              () -> {
                try {
                  if (!p.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                  }
                } catch (InterruptedException e) {
                  p.destroyForcibly();
                }
              },
              "wrk-watchdog");
      watchdog.setDaemon(true);
      watchdog.start();
      bytes = p.getInputStream().readAllBytes();
      p.waitFor();
    } finally {
      p.destroyForcibly();
    }
    double cpu = Cpu.endedChildren() - cpuBefore;
    String out = new String(bytes, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
    }
    Matcher rate = RATE.matcher(out);
    Matcher total = TOTAL.matcher(out);
    if (!rate.find() || !total.find()) {
      throw new IllegalStateException("unexpected wrk output:\n" + out);
    }
    Matcher non2xx = NON_2XX.matcher(out);
    Matcher socket = SOCKET.matcher(out);
    Matcher wrong = WRONG.matcher(out);
    if (script != null && !wrong.find()) {
      throw new IllegalStateException("no count of wrong answers in wrk's output:\n" + out);
    }
    long socketErrors = 0;
    if (socket.find()) {
      for (int g = 1; g <= 4; g++) {
        socketErrors += Long.parseLong(socket.group(g));
      }
    }
    return new Result(
        Double.parseDouble(rate.group(1)),
        Long.parseLong(total.group(1)),
        percentile(out, "50%"),
        percentile(out, "75%"),
        percentile(out, "90%"),
        percentile(out, "99%"),
        non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0,
        socketErrors,
        script != null ? Long.parseLong(wrong.group(1)) : 0,
        cpu,
        out);
  }

  /** A line of wrk's latency distribution, e.g. {@code "     99%    1.23ms"}, in microseconds. */
  private static double percentile(String out, String which) {
    Matcher m =
        Pattern.compile("^\\s+" + Pattern.quote(which) + "\\s+([0-9.]+)(us|ms|s|m)\\s*$", Pattern.MULTILINE)
            .matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("no " + which + " latency in wrk's output:\n" + out);
    }
    double value = Double.parseDouble(m.group(1));
    return switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "us" -> value;
      case "ms" -> value * 1e3;
      case "s" -> value * 1e6;
      default -> value * 60e6;
    };
  }
}
