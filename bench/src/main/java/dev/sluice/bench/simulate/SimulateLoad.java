package dev.sluice.bench.simulate;

import com.sun.management.OperatingSystemMXBean;
import dev.sluice.simulate.Simulate;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How fast {@code simulate} replays a large combined log (issue 12: 1 GB in under a minute on two
 * cores). Generates the log once into {@code <dir>/access.log}: clients Zipf-distributed over 100k
 * IPv4 addresses, a handful of paths with {@code POST /login}, a day of time at about 64 lines a
 * second. Then, in each round, a baseline that only reads and splits the lines (the same reader and
 * buffer size as the replay, three substrings a line) and the replay itself, through {@link
 * Simulate#run} as {@code java -jar sluice-agent.jar simulate} runs it; prints both, their lines/s,
 * the CPU the process spent on each (the wall clock means little on a machine shared with other
 * work, so the load average is printed too) and the ratio, then the last replay's report.
 *
 * <p>Options ({@code --name=value}): {@code dir} (target/simulate), {@code mb} (size of the log,
 * 1024), {@code rounds} (2), {@code regenerate} (false: a log of the right size is reused).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.simulate.SimulateLoad --dir=bench/target/simulate
 * </pre>
 */
public final class SimulateLoad {
  private static final int CLIENTS = 100_000;
  private static final double ZIPF_EXPONENT = 1.0;
  private static final String[][] REQUESTS = {
    {"GET", "/"},
    {"GET", "/api/items/"},
    {"GET", "/api/items/"},
    {"GET", "/api/items/"},
    {"POST", "/api/orders"},
    {"POST", "/login"},
    {"GET", "/static/app.js"},
    {"GET", "/static/app.css"},
    {"GET", "/health"},
    {"GET", "/api/search?q="},
  };
  private static final String[] AGENTS = {
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
        + " Chrome/126.0.0.0 Safari/537.36",
    "curl/8.5.0",
    "okhttp/4.12.0",
  };
  private static final String RULES =
      """
      exclude: [/health]
      rules:
        - { id: login, match: { path: /login, methods: [POST] }, key: ip, limit: 5, window: 1m,
            algorithm: token_bucket }
        - { id: api, match: { path: /api/** }, key: ip, limit: 600, window: 1m }
        - { id: orders, match: { path: /api/orders, methods: [POST] }, key: ip, limit: 30,
            window: 1m, algorithm: fixed_window }
        - { id: trial, match: { path: /** }, key: ip, limit: 120, window: 1m, shadow: true }
      """;

  private SimulateLoad() {}

  public static void main(String[] args) throws IOException {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      String[] kv = arg.replaceFirst("^--", "").split("=", 2);
      options.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    Path dir = Paths.get(options.getOrDefault("dir", "target/simulate"));
    long bytes = Long.parseLong(options.getOrDefault("mb", "1024")) << 20;
    int rounds = Integer.parseInt(options.getOrDefault("rounds", "2"));
    Files.createDirectories(dir);
    Path log = dir.resolve("access.log");
    Path rules = Files.writeString(dir.resolve("ratelimit.yaml"), RULES);
    if (Boolean.parseBoolean(options.get("regenerate"))
        || !Files.exists(log)
        || Math.abs(Files.size(log) - bytes) > (1 << 20)) {
      long start = System.nanoTime();
      long lines = generate(log, bytes);
      System.out.printf(
          Locale.ROOT,
          "generated %s: %,d bytes, %,d lines in %.1f s%n",
          log,
          Files.size(log),
          lines,
          (System.nanoTime() - start) / 1e9);
    }
    OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    String report = "";
    for (int round = 1; round <= rounds; round++) {
      double load = os.getSystemLoadAverage();
      long start = System.nanoTime();
      long cpu = os.getProcessCpuTime();
      long lines = readAndSplit(log);
      double baseline = (System.nanoTime() - start) / 1e9;
      double baselineCpu = (os.getProcessCpuTime() - cpu) / 1e9;
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      start = System.nanoTime();
      cpu = os.getProcessCpuTime();
      int code =
          Simulate.run(
              "simulate",
              new String[] {"--rules", rules.toString(), "--log", log.toString()},
              new PrintStream(out, true, StandardCharsets.UTF_8),
              System.err);
      double replay = (System.nanoTime() - start) / 1e9;
      double replayCpu = (os.getProcessCpuTime() - cpu) / 1e9;
      report = out.toString(StandardCharsets.UTF_8);
      System.out.printf(
          Locale.ROOT,
          "round %d (load average %.1f): baseline (read + split) %.1f s, %,.0f lines/s, cpu %.1f s;"
              + " replay %.1f s, %,.0f lines/s, cpu %.1f s (exit %d); replay / baseline %.2f%n",
          round,
          load,
          baseline,
          lines / baseline,
          baselineCpu,
          replay,
          lines / replay,
          replayCpu,
          code,
          replay / baseline);
    }
    System.out.println();
    System.out.print(report);
  }

  /** Reads the log as the replay does, cutting out the address, method and path of each line. */
  private static long readAndSplit(Path log) throws IOException {
    long lines = 0;
    long chars = 0;
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(Files.newInputStream(log), StandardCharsets.UTF_8), 1 << 20)) {
      String line;
      while ((line = in.readLine()) != null) {
        int space = line.indexOf(' ');
        int quote = line.indexOf('"', space);
        int methodEnd = line.indexOf(' ', quote);
        int pathEnd = line.indexOf(' ', methodEnd + 1);
        String address = line.substring(0, space);
        String method = line.substring(quote + 1, methodEnd);
        String path = line.substring(methodEnd + 1, pathEnd);
        chars += address.length() + method.length() + path.length();
        lines++;
      }
    }
    return chars > 0 ? lines : 0;
  }

  /** Writes combined-format lines until {@code bytes}; returns how many. */
  private static long generate(Path log, long bytes) throws IOException {
    String[] clients = new String[CLIENTS];
    double[] cumulative = new double[CLIENTS];
    double sum = 0;
    SplittableRandom random = new SplittableRandom(12);
    for (int i = 0; i < CLIENTS; i++) {
      sum += 1 / Math.pow(i + 1, ZIPF_EXPONENT);
      cumulative[i] = sum;
      int a = random.nextInt(1, 224);
      clients[i] = a + "." + random.nextInt(256) + "." + random.nextInt(256) + "." + (i % 254 + 1);
    }
    DateTimeFormatter clf = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US);
    long second = Instant.parse("2025-06-01T00:00:00Z").getEpochSecond();
    String time = "";
    long written = 0;
    long lines = 0;
    StringBuilder sb = new StringBuilder(400);
    try (Writer out = new BufferedWriter(Files.newBufferedWriter(log), 1 << 20)) {
      long timeOf = Long.MIN_VALUE;
      while (written < bytes) {
        second += random.nextInt(64) == 0 ? 1 : 0;
        if (timeOf != second) {
          time = clf.format(Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC));
          timeOf = second;
        }
        int client = zipf(cumulative, random.nextDouble() * sum);
        String[] request = REQUESTS[random.nextInt(REQUESTS.length)];
        String target =
            request[1].endsWith("/") || request[1].endsWith("=")
                ? request[1] + random.nextInt(10_000)
                : request[1];
        sb.setLength(0);
        sb.append(clients[client])
            .append(" - - [")
            .append(time)
            .append("] \"")
            .append(request[0])
            .append(' ')
            .append(target)
            .append(" HTTP/1.1\" ")
            .append(random.nextInt(20) == 0 ? 404 : 200)
            .append(' ')
            .append(random.nextInt(200, 40_000))
            .append(" \"https://shop.example.com/\" \"")
            .append(AGENTS[client % AGENTS.length])
            .append("\"\n");
        out.append(sb);
        written += sb.length();
        lines++;
      }
    }
    return lines;
  }

  /** The first rank whose cumulative weight reaches {@code target}. */
  private static int zipf(double[] cumulative, double target) {
    int low = 0;
    int high = cumulative.length - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (cumulative[mid] < target) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
