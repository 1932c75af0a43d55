package dev.sluice.bench.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The same RedisLoad closed loop on two builds, interleaved: each round runs the baseline's
 * benchmarks jar (A) and the candidate's (B), A first in odd rounds and B first in even ones, each
 * in a JVM of its own, against one redis-server
 * started once; then it prints B ÷ A per phase with the rounds' spread. A regression of the Redis
 * path shows as a ratio below 1 that no drift of the shared machine explains, since A and B met the
 * same drift in turns.
 *
 * <p>Options: {@code baseline} (A's jar, required), {@code candidate} (B's jar; this class's own by
 * default), {@code rounds} (3), {@code redis-server} or {@code port} as RedisLoad takes them; every
 * other option goes to both RedisLoads, whose defaults here are the phases: {@code
 * --threads=64 --keys=1,10000 --limiters=sluice,script}. See docs/performance.md.
 */
public final class CompareBuilds {
  private static final String[] JVM = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"};

  /** Per phase, in the order first seen: each build's rows, one a round. */
  private final Map<String, List<List<PhaseRow>>> rows = new LinkedHashMap<>();

  public static void main(String[] args) throws Exception {
    Map<String, String> options = RedisLoad.options(args);
    String baseline = options.remove("baseline");
    if (baseline == null) {
      throw new IllegalArgumentException(
          "--baseline=<benchmarks.jar of the other build> is needed");
    }
    List<Path> jars = List.of(existing(baseline), candidate(options.remove("candidate")));
    int rounds = Integer.parseInt(orDefault(options.remove("rounds"), "3"));
    options.putIfAbsent("threads", "64");
    options.putIfAbsent("keys", "1,10000");
    options.putIfAbsent("limiters", "sluice,script");
    options.put("parts", "load");
    try (LocalRedis redis = RedisLoad.redis(options)) {
      options.remove("redis-server");
      options.put("port", Integer.toString(redis.port()));
      System.out.printf(
          "A: %s%nB: %s%n%s on 127.0.0.1:%d%n",
          jars.get(0), jars.get(1), redis.describe(), redis.port());
      new CompareBuilds().run(jars, rounds, options);
    }
  }

  private void run(List<Path> jars, int rounds, Map<String, String> options)
      throws IOException, InterruptedException {
    for (int round = 1; round <= rounds; round++) {
      for (int turn = 0; turn < 2; turn++) {
        // A then B in odd rounds, B then A in even ones: a machine whose load rises or falls
        // through a round favours neither build over an even number of rounds.
        int build = round % 2 == 1 ? turn : 1 - turn;
        String label =
            String.format(
                Locale.ROOT,
                "round %d %s, load %.2f",
                round,
                "AB".charAt(build),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (PhaseRow row : redisLoad(jars.get(build), options, label)) {
          rows.computeIfAbsent(row.phase(), p -> List.of(new ArrayList<>(), new ArrayList<>()))
              .get(build)
              .add(row);
        }
      }
    }
    printRatios();
  }

  /** One RedisLoad of {@code jar}, its rows echoed after {@code label} as they come. */
  private static List<PhaseRow> redisLoad(Path jar, Map<String, String> options, String label)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(JVM));
    command.addAll(List.of("-cp", jar.toString(), RedisLoad.class.getName()));
    options.forEach((name, value) -> command.add("--" + name + "=" + value));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<PhaseRow> rows = new ArrayList<>();
    List<String> output = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        output.add(line);
        Optional<PhaseRow> row = PhaseRow.parse(line);
        if (row.isPresent()) {
          rows.add(row.get());
          System.out.println(label + ": " + line);
        }
      }
    }
    if (process.waitFor() != 0 || rows.isEmpty()) {
      throw new IllegalStateException(
          "RedisLoad of " + jar + " failed or measured nothing:\n" + String.join("\n", output));
    }
    return rows;
  }

  private void printRatios() {
    System.out.println(
        "\n| phase | A decisions/s | B decisions/s | B ÷ A | rounds' B ÷ A | decisions/read A, B"
            + " | JVM CPU A, B |");
    System.out.println("| --- | ---: | ---: | ---: | --- | --- | --- |");
    rows.forEach(
        (phase, builds) -> {
          List<PhaseRow> a = builds.get(0);
          List<PhaseRow> b = builds.get(1);
          List<String> perRound = new ArrayList<>();
          for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            perRound.add(
                String.format(Locale.ROOT, "%.2f", b.get(i).perSecond() / a.get(i).perSecond()));
          }
          double meanA = mean(a, PhaseRow::perSecond);
          double meanB = mean(b, PhaseRow::perSecond);
          System.out.printf(
              Locale.ROOT,
              "| %s | %,.0f | %,.0f | **%.2f** | %s | %.1f, %.1f | %.0f %%, %.0f %% |%n",
              phase,
              meanA,
              meanB,
              meanB / meanA,
              String.join(", ", perRound),
              mean(a, PhaseRow::decisionsPerRead),
              mean(b, PhaseRow::decisionsPerRead),
              mean(a, PhaseRow::jvmCpuPercent),
              mean(b, PhaseRow::jvmCpuPercent));
        });
  }

  private static double mean(List<PhaseRow> rows, ToDoubleFunction<PhaseRow> f) {
    return rows.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  private static Path candidate(String jar) throws URISyntaxException {
    return jar != null
        ? existing(jar)
        : Path.of(CompareBuilds.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static Path existing(String jar) {
    Path path = Path.of(jar).toAbsolutePath();
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(jar + " is not a file (a benchmarks.jar is expected)");
    }
    return path;
  }

  private static String orDefault(String value, String otherwise) {
    return value != null ? value : otherwise;
  }
}
