package dev.sluice.bench.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * What the agent adds to the start of an unmodified server distribution, Tomcat or WildFly: a
 * tool, not a test.
 *
 * <pre>
 * ./mvnw -o -q -pl bench,it-tests -am package -DskipTests   # agent jar, bench jar, distributions
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.agent.StartupCost \
 *     it-tests/target/distributions/apache-tomcat-11.0.24 agent/target/sluice-agent.jar [runs]
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.agent.StartupCost \
 *     it-tests/target/distributions/wildfly-39.0.1.Final agent/target/sluice-agent.jar [runs]
 * </pre>
 *
 * <p>Starts the distribution {@code runs} times (default 5) without and as many times with {@code
 * -javaagent}, alternating, each from a fresh copy ({@link TomcatRun}, {@link WildFlyRun}), and
 * prints per run and as medians:
 *
 * <ul>
 *   <li>the server's own start-up line (Tomcat's "Server startup in", WildFly's WFLYSRV0025),
 *       which leaves out what the agent does before and after it;
 *   <li>the wall time from starting the process to the first 200 from a page a rule limits when
 *       the agent runs (Tomcat's examples app's HelloWorldExample, a static page of a war on
 *       WildFly): what a user waits for;
 *   <li>the CPU time the server's JVM used until then (all threads, user + system): on a busy
 *       machine wall times move with the neighbours' load, this much less;
 *   <li>on Tomcat, the first request to a JSP after that, which compiles it: Jasper's compiler
 *       loads thousands of classes, each of which passes the agent's type matcher;
 *   <li>the agent's own "agent started in N ms";
 *   <li>the server's resident memory (RSS, from /proc) after 3 s of requests and a full collection
 *       ({@code jcmd GC.run}): what a container's memory limit counts.
 * </ul>
 *
 * <p>Run it on a quiet machine for wall times. Needs a JDK 17+, /bin/sh and free loopback ports.
 */
public final class StartupCost {
  private static final String RULES =
      """
      rules:
        - { id: hello, match: { path: %s }, key: ip, limit: 1000000, window: 1s }
      """;

  private StartupCost() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2 || args.length > 3) {
      System.err.println(
          "usage: StartupCost <unpacked Tomcat or WildFly distribution>"
              + " <sluice-agent.jar>[,<another agent jar>...] [runs, default 5]");
      System.exit(2);
    }
    Path distribution = Path.of(args[0]).toAbsolutePath();
    List<Path> agentJars = new ArrayList<>();
    for (String jar : args[1].split(",")) {
      agentJars.add(Path.of(jar).toAbsolutePath());
    }
    int runs = args.length == 3 ? Integer.parseInt(args[2]) : 5;
    boolean tomcat = Files.isRegularFile(distribution.resolve("bin/catalina.sh"));
    if (!(tomcat || Files.isRegularFile(distribution.resolve("bin/standalone.sh")))
        || !agentJars.stream().allMatch(Files::isRegularFile)) {
      throw new IllegalArgumentException(
          "no bin/catalina.sh or bin/standalone.sh in " + distribution + ", or no " + agentJars);
    }
    Supplier<ServerRun> server =
        tomcat ? () -> new TomcatRun(distribution) : () -> new WildFlyRun(distribution);
    Path config = Files.createTempFile("sluice-startup-cost", ".yaml");
    Files.writeString(config, RULES.formatted(server.get().hello()));
    // Variant 0 runs without the agent, variant i with agent jar i.
    List<String> options = new ArrayList<>(List.of(""));
    List<List<ServerRun.Result>> results = new ArrayList<>(List.of(new ArrayList<>()));
    for (Path jar : agentJars) {
      options.add("-javaagent:" + jar + "=config=" + config);
      results.add(new ArrayList<>());
    }

    System.out.printf(
        "%s, Java %s, %d runs each; agent %s; load average at start %s%n",
        distribution.getFileName(),
        Runtime.version(),
        runs,
        agentJars.size() == 1 ? agentJars.get(0) : "1.." + agentJars.size() + " = " + agentJars,
        Files.readString(Path.of("/proc/loadavg")).trim());
    System.out.println(
        "run  agent  server-ms  first-200-ms  cpu-ms  first-jsp-ms  agent-start-ms"
            + "  rss-after-gc-mb");
    for (int i = 1; i <= runs; i++) {
      // Alternating, the order rotating every run, so a drift in the machine's load hits all.
      for (int k = 0; k < options.size(); k++) {
        int variant = (k + i - 1) % options.size();
        ServerRun.Result result = server.get().run(options.get(variant));
        results.get(variant).add(result);
        System.out.printf(
            "%3d  %-5s  %9d  %12d  %6d  %12d  %14s  %15.1f%n",
            i,
            variant == 0 ? "no" : agentJars.size() == 1 ? "yes" : Integer.toString(variant),
            result.serverMillis(),
            result.firstResponseMillis(),
            result.cpuMillis(),
            result.firstJspMillis(),
            variant == 0 ? "-" : Long.toString(result.agentMillis()),
            result.rssKb() / 1024.0);
      }
    }
    Files.delete(config);
    System.out.println();
    System.out.println(
        "medians (ms, KB); per agent: its median, the difference and the ratio of the medians to"
            + " no agent");
    print("server's start-up line", results, ServerRun.Result::serverMillis);
    print("process to first 200", results, ServerRun.Result::firstResponseMillis);
    print("CPU to first 200", results, ServerRun.Result::cpuMillis);
    if (tomcat) {
      print("first JSP compile", results, ServerRun.Result::firstJspMillis);
    }
    print("RSS after load+GC (KB)", results, ServerRun.Result::rssKb);
    StringBuilder started = new StringBuilder(String.format("%-22s %8s", "agent started in", "-"));
    for (List<ServerRun.Result> with : results.subList(1, results.size())) {
      started.append(String.format("  %8d", median(with, ServerRun.Result::agentMillis)));
    }
    System.out.println(started);
  }

  private static void print(
      String what, List<List<ServerRun.Result>> results, ToLongFunction<ServerRun.Result> figure) {
    long without = median(results.get(0), figure);
    StringBuilder line = new StringBuilder(String.format("%-22s %8d", what, without));
    for (List<ServerRun.Result> with : results.subList(1, results.size())) {
      long median = median(with, figure);
      line.append(
          String.format(
              "  %8d %+8d x%.2f", median, median - without, (double) median / without));
    }
    System.out.println(line);
  }

  /** The median; of an even count, the mean of the middle two. */
  static long median(List<ServerRun.Result> results, ToLongFunction<ServerRun.Result> figure) {
    long[] values = results.stream().mapToLong(figure).sorted().toArray();
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }
}
