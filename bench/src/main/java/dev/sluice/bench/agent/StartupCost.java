package dev.sluice.bench.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What the agent adds to the start of an unmodified Tomcat distribution: a tool, not a test.
 *
 * <pre>
 * mvn -B -q -pl bench,it-tests -am package -DskipTests   # agent jar, bench jar, distributions
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.agent.StartupCost \
 *     it-tests/target/distributions/apache-tomcat-11.0.24 agent/target/sluice-agent.jar [runs]
 * </pre>
 *
 * <p>Starts the distribution {@code runs} times (default 5) without and as many times with {@code
 * -javaagent}, alternating, each from a fresh copy with {@code bin/catalina.sh run}, and prints per
 * run and as medians:
 *
 * <ul>
 *   <li>Tomcat's own "Server startup in [N] milliseconds", which starts counting after premain has
 *       returned, so it leaves out the agent's own start;
 *   <li>the wall time from starting the process to the first 200 from the examples app's
 *       HelloWorldExample (with the agent, a rule limits that path): what a user waits for;
 *   <li>the first request to a JSP after that, which compiles it: Jasper's compiler loads thousands
 *       of classes, each of which passes the agent's type matcher;
 *   <li>the agent's own "agent started in N ms";
 *   <li>Tomcat's resident memory (RSS, from /proc) after 3 s of requests and a full collection
 *       ({@code jcmd GC.run}): what a container's memory limit counts.
 * </ul>
 *
 * <p>Run it on a quiet machine: the figures are wall times, and a busy neighbour moves them more
 * than the agent does. Needs a JDK 17+, /bin/sh and free loopback ports.
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
          "usage: StartupCost <unpacked Tomcat distribution> <sluice-agent.jar> [runs, default 5]");
      System.exit(2);
    }
    Path distribution = Path.of(args[0]).toAbsolutePath();
    Path agentJar = Path.of(args[1]).toAbsolutePath();
    int runs = args.length == 3 ? Integer.parseInt(args[2]) : 5;
    if (!Files.isRegularFile(distribution.resolve("bin/catalina.sh"))
        || !Files.isRegularFile(agentJar)) {
      throw new IllegalArgumentException(
          "no bin/catalina.sh in " + distribution + " or no " + agentJar);
    }
    Path config = Files.createTempFile("sluice-startup-cost", ".yaml");
    Files.writeString(config, RULES.formatted(TomcatRun.HELLO));
    String withAgent = "-javaagent:" + agentJar + "=config=" + config;

    List<TomcatRun.Result> without = new ArrayList<>();
    List<TomcatRun.Result> with = new ArrayList<>();
    System.out.printf(
        "%s, Java %s, %d runs each%n", distribution.getFileName(), Runtime.version(), runs);
    System.out.println(
        "run  agent  tomcat-ms  first-200-ms  first-jsp-ms  agent-start-ms  rss-after-gc-mb");
    for (int i = 1; i <= runs; i++) {
      // Alternating, and swapping which goes first, so a drift in the machine's load hits both.
      boolean agentFirst = i % 2 == 0;
      for (boolean agent : agentFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
        TomcatRun.Result result = TomcatRun.run(distribution, agent ? withAgent : "");
        (agent ? with : without).add(result);
        System.out.printf(
            "%3d  %-5s  %9d  %12d  %12d  %14s  %15.1f%n",
            i,
            agent ? "yes" : "no",
            result.tomcatMillis(),
            result.firstResponseMillis(),
            result.firstJspMillis(),
            agent ? Long.toString(result.agentMillis()) : "-",
            result.rssKb() / 1024.0);
      }
    }
    Files.delete(config);
    System.out.println();
    System.out.println("medians (ms, KB)        without   with  difference");
    print("Server startup in", without, with, TomcatRun.Result::tomcatMillis);
    print("process to first 200", without, with, TomcatRun.Result::firstResponseMillis);
    print("first JSP compile", without, with, TomcatRun.Result::firstJspMillis);
    print("RSS after load+GC (KB)", without, with, TomcatRun.Result::rssKb);
    System.out.printf(
        "%-22s %8s %6d%n", "agent started in", "-", median(with, TomcatRun.Result::agentMillis));
  }

  private static void print(
      String what,
      List<TomcatRun.Result> without,
      List<TomcatRun.Result> with,
      ToLongFunction<TomcatRun.Result> figure) {
    long a = median(without, figure);
    long b = median(with, figure);
    System.out.printf("%-22s %8d %6d %+11d%n", what, a, b, b - a);
  }

  /** The median; of an even count, the mean of the middle two. */
  static long median(List<TomcatRun.Result> results, ToLongFunction<TomcatRun.Result> figure) {
    long[] values = results.stream().mapToLong(figure).sorted().toArray();
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }
}
