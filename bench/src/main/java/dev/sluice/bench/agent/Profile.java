package dev.sluice.bench.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A flight recording of a running server ({@code jcmd PID JFR.start settings=profile}, stopped
 * into a file), summarised from its {@code jdk.ExecutionSample} events: which share of the Java
 * samples of Tomcat's request threads has Sluice's code (or one of its parts) on the stack, and
 * the hottest leaf methods.
 */
final class Profile {
  /** Parts of the request path, each counted once per sample whose stack holds it. */
  private static final Map<String, Predicate<String>> PARTS = new LinkedHashMap<>();

  static {
    PARTS.put("Sluice, all of it (dev.sluice.*, not the example app)", Profile::isSluice);
    PARTS.put(
        "agent: ServletGate.rejected (all the gate does)",
        m -> m.startsWith("dev.sluice.agent.gate.ServletGate.rejected"));
    PARTS.put(
        "Filter: RateLimitFilter.doFilter, Sluice's part (before chain.doFilter)",
        m -> m.startsWith("dev.sluice.servlet.RateLimitFilter.doFilter"));
    PARTS.put("Enforcer.admit (the decision and its headers)", m -> m.startsWith("dev.sluice.http.Enforcer.admit"));
    PARTS.put("the servlet (HelloServlet.doGet)", m -> m.startsWith("dev.sluice.example.HelloServlet.doGet"));
  }

  private Profile() {}

  static boolean isSluice(String method) {
    return method.startsWith("dev.sluice.") && !method.startsWith("dev.sluice.example.");
  }

  static void start(long pid, String name) throws IOException, InterruptedException {
    jcmd(pid, "JFR.start", "name=" + name, "settings=profile");
  }

  static void stop(long pid, String name, Path file) throws IOException, InterruptedException {
    jcmd(pid, "JFR.stop", "name=" + name, "filename=" + file);
  }

  private static void jcmd(long pid, String... args) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    List<String> command = new java.util.ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
    }
  }

  /** Prints the summary of {@code file} as Markdown. */
  static void summarise(Path file, String label, PrintStream out) throws IOException {
    long all = 0;
    long requestThreads = 0;
    Map<String, Long> parts = new LinkedHashMap<>();
    PARTS.keySet().forEach(k -> parts.put(k, 0L));
    Map<String, Long> leaves = new HashMap<>();
    Map<String, Long> sluiceLeaves = new HashMap<>();
    Map<String, Long> owners = new HashMap<>();
    long nativeSamples = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (e.getEventType().getName().equals("jdk.NativeMethodSample")) {
        nativeSamples++;
        continue;
      }
      if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
        continue;
      }
      all++;
      String thread = e.getThread("sampledThread") == null ? "" : e.getThread("sampledThread").getJavaName();
      if (thread == null || !thread.contains("-exec-")) {
        continue; // Tomcat's request threads are http-nio-PORT-exec-N
      }
      requestThreads++;
      RecordedStackTrace stack = e.getStackTrace();
      if (stack == null || stack.getFrames().isEmpty()) {
        continue;
      }
      List<String> methods =
          stack.getFrames().stream().filter(RecordedFrame::isJavaFrame).map(Profile::name).toList();
      if (methods.isEmpty()) {
        continue;
      }
      leaves.merge(methods.get(0), 1L, Long::sum);
      for (Map.Entry<String, Predicate<String>> part : PARTS.entrySet()) {
        if (onStack(methods, part.getValue())) {
          parts.merge(part.getKey(), 1L, Long::sum);
        }
      }
      String innermost = innermostSluice(methods);
      if (innermost != null) {
        sluiceLeaves.merge(methods.get(0), 1L, Long::sum);
        owners.merge(innermost, 1L, Long::sum);
      }
    }
    out.printf(
        Locale.ROOT,
        "%nProfile of %s (%s): %,d Java execution samples, %,d of them in Tomcat's request"
            + " threads (the shares below are of those); %,d samples of threads in native code"
            + " (socket I/O, waits), not counted%n%n",
        label,
        file,
        all,
        requestThreads,
        nativeSamples);
    out.println("| on the stack | samples | share |");
    out.println("| --- | ---: | ---: |");
    final long base = Math.max(1, requestThreads);
    parts.forEach(
        (part, n) ->
            out.printf(Locale.ROOT, "| %s | %,d | %.1f %% |%n", part, n, 100.0 * n / base));
    out.println(
        "\nSamples with Sluice on the stack, by the innermost Sluice class on it (what that class"
            + " runs itself and what it calls outside Sluice, e.g. a servlet getter or the JDK):\n");
    out.println("| class | samples | share |");
    out.println("| --- | ---: | ---: |");
    owners.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(
            e ->
                out.printf(
                    Locale.ROOT,
                    "| `%s` | %,d | %.1f %% |%n",
                    e.getKey(),
                    e.getValue(),
                    100.0 * e.getValue() / base));
    out.println("\nHottest leaf methods (request threads):\n");
    top(leaves, base, 15, out);
    if (!sluiceLeaves.isEmpty()) {
      out.println("\nHottest leaf methods of the samples with Sluice on the stack:\n");
      top(sluiceLeaves, base, 15, out);
    }
  }

  private static void top(Map<String, Long> counts, long base, int n, PrintStream out) {
    out.println("| leaf method | samples | share |");
    out.println("| --- | ---: | ---: |");
    counts.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .limit(n)
        .forEach(
            e ->
                out.printf(
                    Locale.ROOT,
                    "| `%s` | %,d | %.1f %% |%n",
                    e.getKey(),
                    e.getValue(),
                    100.0 * e.getValue() / base));
  }

  /**
   * Whether a frame matching {@code part} is on the stack (leaf first) with Sluice's code at or
   * above the leaf side of it: for the Filter, whose doFilter also holds the rest of the chain
   * (the servlet), only samples taken inside Sluice's own part of doFilter count.
   */
  private static boolean onStack(List<String> methods, Predicate<String> part) {
    for (int i = 0; i < methods.size(); i++) {
      if (part.test(methods.get(i))) {
        if (!methods.get(i).startsWith("dev.sluice.servlet.RateLimitFilter.doFilter")) {
          return true;
        }
        // Inside the Filter: count it unless the chain it calls (a Tomcat frame) is below.
        for (int j = 0; j < i; j++) {
          if (methods.get(j).startsWith("org.apache.catalina.core.ApplicationFilterChain.")) {
            return false;
          }
        }
        return true;
      }
    }
    return false;
  }

  /**
   * The class of the Sluice frame nearest the leaf, or null when no Sluice code is on the stack
   * or the sample is in the rest of the chain below the Filter.
   */
  private static String innermostSluice(List<String> methods) {
    for (int i = 0; i < methods.size(); i++) {
      String m = methods.get(i);
      if (isSluice(m)) {
        if (m.startsWith("dev.sluice.servlet.RateLimitFilter.doFilter")
            && !onStack(methods, x -> x.startsWith("dev.sluice.servlet.RateLimitFilter.doFilter"))) {
          return null;
        }
        return m.substring(0, m.lastIndexOf('.'));
      }
      if (m.startsWith("dev.sluice.example.")) {
        return null;
      }
    }
    return null;
  }

  private static String name(RecordedFrame f) {
    return f.getMethod().getType().getName() + "." + f.getMethod().getName();
  }
}
