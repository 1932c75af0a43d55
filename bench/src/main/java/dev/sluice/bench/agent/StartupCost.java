package dev.sluice.bench.agent;

import dev.sluice.it.agent.dist.SupportedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What the agent adds to the start of every server it is tested on (issue 18): a tool, not a
 * test. Each server starts as its integration test starts it, through the same launchers ({@link
 * SupportedServer} in it-tests), without and with {@code -javaagent}.
 *
 * <pre>
 * ./mvnw -q -Pstartup-cost -pl agent,bench -am package -DskipTests   # with it-tests
 * java -cp bench/target/classes:$(cat bench/target/startup-cost.classpath) \
 *     dev.sluice.bench.agent.StartupCost tomcat-11,wildfly-39 agent/target/sluice-agent.jar 5
 * </pre>
 *
 * <p>The first argument names servers ({@link SupportedServer#argument}: tomcat-8-5, tomcat-9,
 * tomcat-10-1, tomcat-11, jetty-9-4, jetty-10, jetty-11, jetty-12, wildfly-26, wildfly-39,
 * open-liberty, payara-6, boot-2-7, boot-3-undertow), comma-separated, or is {@code all}. Starts
 * each {@code runs} times (default 5) without and as many times with the agent, alternating, each
 * from a fresh copy, and prints per run and as medians:
 *
 * <ul>
 *   <li>the wall time from starting the process to the first 200 from a page a rule limits when
 *       the agent runs (Tomcat's examples app's HelloWorldExample, the test app's /api/hello
 *       elsewhere): what a user waits for;
 *   <li>the CPU time the server's JVM used until then (all threads, user + system): on a busy
 *       machine wall times move with the neighbours' load, this much less;
 *   <li>the server's resident memory (RSS, from /proc) after 3 s of requests and a full collection
 *       ({@code jcmd GC.run}): what a container's memory limit counts;
 *   <li>the server's own start-up line (Tomcat's "Server startup in", WildFly's WFLYSRV0025),
 *       which leaves out what the agent does before and after it;
 *   <li>on Tomcat, the first request to a JSP after that, which compiles it: Jasper's compiler
 *       loads thousands of classes, each of which passes the agent's type matcher;
 *   <li>the agent's own "agent started in N ms", where the server writes it to its console.
 * </ul>
 *
 * <p>Last, one line per server with its medians, their differences and ratios. Run it on a quiet
 * machine for wall times. Needs a JDK 17+, /bin/sh and free loopback ports.
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
          "usage: StartupCost <server>[,<server>...]|all"
              + " <sluice-agent.jar>[,<another agent jar>...] [runs, default 5]");
      System.exit(2);
    }
    ItTestsBuild.use(Layout.defaultRoot());
    List<SupportedServer> servers = new ArrayList<>();
    for (String name : args[0].split(",")) {
      servers.addAll(
          name.equals("all")
              ? List.of(SupportedServer.values())
              : List.of(SupportedServer.of(name)));
    }
    List<Path> agentJars = new ArrayList<>();
    for (String jar : args[1].split(",")) {
      agentJars.add(Path.of(jar).toAbsolutePath());
    }
    if (!agentJars.stream().allMatch(Files::isRegularFile)) {
      throw new IllegalArgumentException("no " + agentJars);
    }
    int runs = args.length == 3 ? Integer.parseInt(args[2]) : 5;
    System.out.printf(
        "%s, Java %s, %d runs each; agent %s%n",
        Instant.now().truncatedTo(ChronoUnit.SECONDS),
        Runtime.version(),
        runs,
        agentJars.size() == 1 ? agentJars.get(0) : "1.." + agentJars.size() + " = " + agentJars);
    List<String> summary = new ArrayList<>();
    for (SupportedServer server : servers) {
      summary.add(measure(server, agentJars, runs));
    }
    System.out.println();
    System.out.println(
        "server  file  no-agent wall/cpu/rss-MB  then per agent: wall, cpu, rss-MB as median"
            + " (difference, ratio)");
    summary.forEach(System.out::println);
    System.out.printf("load average at the end: %s%n", loadAverage());
  }

  /** Measures one server; returns its line of the summary. */
  private static String measure(SupportedServer server, List<Path> agentJars, int runs)
      throws Exception {
    Path config = Files.createTempFile("sluice-startup-cost", ".yaml");
    Files.writeString(config, RULES.formatted(server.limitedPath()));
    // Variant 0 runs without the agent, variant i with agent jar i.
    List<List<String>> options = new ArrayList<>(List.of(List.of()));
    List<List<ServerRun.Result>> results = new ArrayList<>(List.of(new ArrayList<>()));
    for (Path jar : agentJars) {
      options.add(List.of("-javaagent:" + jar + "=config=" + config));
      results.add(new ArrayList<>());
    }
    System.out.printf(
        "%n%s (%s), load average at start %s%n",
        server.argument(), ItTestsBuild.file(server), loadAverage());
    System.out.println(
        "run  agent  server-ms  first-200-ms  cpu-ms  first-jsp-ms  agent-start-ms"
            + "  rss-after-gc-mb");
    ServerRun run = new ServerRun(server);
    for (int i = 1; i <= runs; i++) {
      // Alternating, the order rotating every run, so a drift in the machine's load hits all.
      for (int k = 0; k < options.size(); k++) {
        int variant = (k + i - 1) % options.size();
        ServerRun.Result result = run.run(options.get(variant));
        results.get(variant).add(result);
        System.out.printf(
            "%3d  %-5s  %9d  %12d  %6d  %12d  %14d  %15.1f%n",
            i,
            variant == 0 ? "no" : agentJars.size() == 1 ? "yes" : Integer.toString(variant),
            result.serverMillis(),
            result.firstResponseMillis(),
            result.cpuMillis(),
            result.firstJspMillis(),
            result.agentMillis(),
            result.rssKb() / 1024.0);
      }
    }
    Files.delete(config);
    System.out.println(
        "medians (ms, KB); per agent: its median, the difference and the ratio of the medians to"
            + " no agent");
    if (server.startedIn() != null) {
      print("server's start-up line", results, ServerRun.Result::serverMillis);
    }
    print("process to first 200", results, ServerRun.Result::firstResponseMillis);
    print("CPU to first 200", results, ServerRun.Result::cpuMillis);
    if (server.jsp() != null) {
      print("first JSP compile", results, ServerRun.Result::firstJspMillis);
    }
    print("RSS after load+GC (KB)", results, ServerRun.Result::rssKb);
    StringBuilder line =
        new StringBuilder(
            String.format(
                "%-16s %-28s %6d %6d %6.0f",
                server.argument(),
                ItTestsBuild.file(server),
                median(results.get(0), ServerRun.Result::firstResponseMillis),
                median(results.get(0), ServerRun.Result::cpuMillis),
                median(results.get(0), ServerRun.Result::rssKb) / 1024.0));
    for (List<ServerRun.Result> with : results.subList(1, results.size())) {
      line.append(" |")
          .append(change(results.get(0), with, ServerRun.Result::firstResponseMillis, 1))
          .append(change(results.get(0), with, ServerRun.Result::cpuMillis, 1))
          .append(change(results.get(0), with, ServerRun.Result::rssKb, 1024));
    }
    return line.toString();
  }

  /** " median (+difference, xratio)" of {@code figure}, divided by {@code unit}. */
  private static String change(
      List<ServerRun.Result> without,
      List<ServerRun.Result> with,
      ToLongFunction<ServerRun.Result> figure,
      int unit) {
    long before = median(without, figure);
    long after = median(with, figure);
    return String.format(
        " %6.0f (%+5.0f, x%.2f)",
        after / (double) unit, (after - before) / (double) unit, after / (double) before);
  }

  private static String loadAverage() throws IOException {
    return Files.readString(Path.of("/proc/loadavg")).trim();
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
