package dev.sluice.it.store;

import static dev.sluice.it.store.FleetSimulationMember.ADMITTED_LOCAL;
import static dev.sluice.it.store.FleetSimulationMember.ADMITTED_REDIS;
import static dev.sluice.it.store.FleetSimulationMember.DEMAND;
import static dev.sluice.it.store.FleetSimulationMember.DENIED_LOCAL;
import static dev.sluice.it.store.FleetSimulationMember.FIELDS;
import static dev.sluice.it.store.FleetSimulationMember.INSTANCES_LOCAL;
import static dev.sluice.it.store.FleetSimulationMember.MAX_LOCAL_PER_INSTANCE;

import dev.sluice.it.jvm.ChildJvm;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.store.Clock;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A fleet of limiter instances against a Redis Cluster of 3 masters with a replica each, all on
 * this machine: {@code instances} instances (each its own {@code RedisStore} and {@code Limiter},
 * as that many gateway JVMs would have) spread over {@code jvms} child JVMs ({@link
 * FleetSimulationMember}), sending open-loop traffic at a fixed total rate for identities drawn
 * from a Zipf distribution (a few hot clients, a long tail). One fixed-window rule, {@code
 * fail_open}. Part way through, one master is killed and its replica promoted; every decision is
 * tallied by identity and window, and the tallies are compared with the limit: over- and
 * under-admission before the kill, on the killed master's identities while it failed over and
 * handed over, on the other masters' identities meanwhile, and after.
 *
 * <p>Run it whole (about 2 minutes) for the table in docs/scaling.md:
 *
 * <pre>
 * mvn -B -q -o -pl it-tests -am test-compile dependency:build-classpath -DskipTests \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * java -cp it-tests/target/test-classes:$(cat it-tests/target/test.classpath) \
 *     dev.sluice.it.store.FleetSimulation [--name=value ...]
 * </pre>
 *
 * <p>Options are the fields of {@link Plan}, dashed ({@code --instances=50 --jvms=3 --rate=2000
 * --seconds=75 --kill-after-seconds=25 ...}); {@code FleetSimulationIT} runs a shorter plan and
 * asserts the bounds. Everything is on loopback and bounded: the traffic stops at its planned end,
 * every wait has a timeout, and the cluster and children are stopped on the way out.
 */
public final class FleetSimulation {
  private FleetSimulation() {}

  /**
   * What to simulate.
   *
   * @param killAfterSeconds when to kill a master, from the start of traffic; negative: never
   * @param fleetSize the fleet size each store is given; 0 for auto (heartbeats)
   */
  record Plan(
      List<URI> seeds,
      String prefix,
      int instances,
      int jvms,
      int identities,
      double zipf,
      double rate,
      int seconds,
      int killAfterSeconds,
      long limit,
      long windowMillis,
      int threadsPerJvm,
      int fleetSize,
      int timeoutMillis,
      int poolSize) {

    static Plan defaults() {
      return new Plan(
          List.of(), "sim", 50, 3, 100_000, 1.1, 2_000, 75, 25, 50, 1_000, 16, 0, 200, 8);
    }

    Plan withSeeds(List<URI> seeds) {
      return PlanOptions.withSeeds(this, seeds);
    }

    /**
     * Every field but the seeds, by its option name: the field's name, dashed (kill-after-seconds).
     */
    Map<String, String> values() {
      return PlanOptions.values(this);
    }

    /** The defaults, with {@code --name=value} options (names as in {@link #values}) applied. */
    static Plan parse(String... args) {
      return PlanOptions.parse(defaults(), args);
    }

    /** The plan as a child's arguments: seeds, then name=value pairs; the child adds its own. */
    List<String> memberArgs() {
      return PlanOptions.memberArgs(this, seeds);
    }

    /** {@link #memberArgs} read back; the child's own two arguments (JVM, file) follow them. */
    static Plan fromMemberArgs(String[] args) {
      return PlanOptions.fromMemberArgs(defaults(), args, 2);
    }

    String rulesYaml() {
      return String.join(
          "\n",
          "rules:",
          "  - id: sim",
          "    match: { path: /api/** }",
          "    key: ip",
          "    algorithm: fixed_window",
          "    limit: " + limit,
          "    window: " + windowMillis + "ms",
          "    on_error: fail_open",
          "");
    }

    double ratePerJvm() {
      return rate / jvms;
    }

    int firstInstanceOf(int jvm) {
      return jvm * instances / jvms;
    }

    int instancesOf(int jvm) {
      return firstInstanceOf(jvm + 1) - firstInstanceOf(jvm);
    }

    /** What each instance admits locally per window while its master is down. */
    long share() {
      return Math.max(1, limit / instances);
    }
  }

  public static void main(String[] args) throws Exception {
    Plan plan = Plan.parse(args);
    Report report = run(plan, System.out);
    report.print(System.out);
  }

  /** Forms a cluster, runs the plan on it, and returns what the fleet admitted. */
  static Report run(Plan given, PrintStream log) throws Exception {
    long began = System.nanoTime();
    try (RedisClusterHandle cluster = RedisServers.cluster(3, 1)) {
      Plan plan = given.withSeeds(ClusterStores.seedUris(cluster));
      int[] masterOfSlot = masterPortBySlot(cluster);
      log.printf(
          "FleetSimulation: cluster of 3 masters + 3 replicas formed in %.1f s; %d instances in %d"
              + " JVMs, %.0f decisions/s for %d s, kill at %d s%n",
          (System.nanoTime() - began) / 1e9,
          plan.instances,
          plan.jvms,
          plan.rate,
          plan.seconds,
          plan.killAfterSeconds);
      Path dir = Files.createTempDirectory("sluice-fleet-simulation-");
      List<ChildJvm> children = new ArrayList<>();
      try {
        children.addAll(
            startMembers(FleetSimulationMember.class, plan.memberArgs(), plan.jvms, dir));
        List<String> ready = new ArrayList<>();
        for (ChildJvm child : children) {
          ready.add(child.awaitLine("ready", Duration.ofSeconds(90)));
        }
        long startMillis = System.currentTimeMillis() + 1_000;
        Map<Integer, Map<String, String>> atStart = nodeStats(cluster, true);
        for (ChildJvm child : children) {
          child.send("go " + startMillis);
        }
        log.printf(
            "FleetSimulation: children %s after %.1f s; traffic starts%n",
            ready, (System.nanoTime() - began) / 1e9);
        // The nodes while every instance is connected: just before the kill, or half way.
        sleepUntil(
            startMillis
                + 1000L * (plan.killAfterSeconds >= 0 ? plan.killAfterSeconds : plan.seconds / 2));
        Map<Integer, Map<String, String>> midway = nodeStats(cluster, false);
        // The master of the hottest identity (rank 1): the worst case for the local shares.
        Outage outage =
            plan.killAfterSeconds >= 0
                ? failOver(cluster, FleetSimulationMember.identity(0), log)
                : null;
        List<String> done = new ArrayList<>();
        Duration finish = Duration.ofSeconds(plan.seconds + 60);
        for (ChildJvm child : children) {
          done.add(child.awaitLine("done", finish));
          child.awaitSuccess(Duration.ofSeconds(30));
        }
        log.printf("FleetSimulation: %s%n", done);
        List<String> nodes = nodeRows(atStart, midway, nodeStats(cluster, false), plan.seconds);
        Map<Long, long[]> tallies = new TreeMap<>();
        for (int j = 0; j < plan.jvms; j++) {
          for (String line : Files.readAllLines(dir.resolve("member-" + j + ".tally"))) {
            merge(tallies, line);
          }
        }
        return new Report(
            plan, tallies, masterOfSlot, outage, done, nodes, (System.nanoTime() - began) / 1e9);
      } finally {
        children.forEach(ChildJvm::close);
        try (var files = Files.walk(dir)) {
          files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        }
      }
    }
  }

  /**
   * Starts {@code jvms} child JVMs running {@code member} with {@code args}, then each its number
   * and the file it writes its tallies to in {@code dir} ({@code member-<n>.tally}).
   */
  static List<ChildJvm> startMembers(Class<?> member, List<String> args, int jvms, Path dir) {
    List<ChildJvm> children = new ArrayList<>();
    for (int j = 0; j < jvms; j++) {
      List<String> command =
          new ArrayList<>(
              List.of(
                  ChildJvm.java(),
                  "-Xmx384m",
                  "-XX:+UseSerialGC",
                  "-cp",
                  ChildJvm.classPath(member),
                  member.getName()));
      command.addAll(args);
      command.add("" + j);
      command.add(dir.resolve("member-" + j + ".tally").toString());
      children.add(ChildJvm.start("fleet JVM " + j, command, Map.of(), null));
    }
    return children;
  }

  /**
   * INFO of every live node by port (clients, commandstats, cpu, stats, replication); with {@code
   * reset}, CONFIG RESETSTAT first, so the command counts cover the traffic alone.
   */
  private static Map<Integer, Map<String, String>> nodeStats(
      RedisClusterHandle cluster, boolean reset) {
    Map<Integer, Map<String, String>> stats = new TreeMap<>();
    for (RedisProcess node : cluster.nodes()) {
      if (!node.isAlive()) {
        continue;
      }
      try (RedisProbe probe = RedisProbe.connect(node.host(), node.port())) {
        if (reset) {
          probe.call("CONFIG", "RESETSTAT");
        }
        stats.put(
            node.port(),
            probe.info("clients", "commandstats", "cpu", "stats", "replication", "memory"));
      }
    }
    return stats;
  }

  /**
   * A table row per node that was alive at the end: its role, clients connected (the instances'
   * pools, the replicas and this probe), script calls and their cost, slot-map reads, CPU and bytes
   * on the wire per second of traffic.
   */
  private static List<String> nodeRows(
      Map<Integer, Map<String, String>> start,
      Map<Integer, Map<String, String>> midway,
      Map<Integer, Map<String, String>> end,
      int seconds) {
    List<String> rows = new ArrayList<>();
    for (Map.Entry<Integer, Map<String, String>> e : end.entrySet()) {
      Map<String, String> before = start.getOrDefault(e.getKey(), Map.of());
      Map<String, String> during = midway.getOrDefault(e.getKey(), Map.of());
      Map<String, String> after = e.getValue();
      double cpu =
          number(after, "used_cpu_user")
              + number(after, "used_cpu_sys")
              - number(before, "used_cpu_user")
              - number(before, "used_cpu_sys");
      rows.add(
          String.format(
              Locale.ROOT,
              "| %d | %s | %.0f | %,.0f | %.1f | %,.0f | %.1f | %,.0f | %.1f | %.1f %% | %,.0f |"
                  + " %,.0f |",
              e.getKey(),
              after.get("role"),
              number(during, "connected_clients"),
              number(during, "mem_clients_normal")
                  / Math.max(1, number(during, "connected_clients")),
              (number(after, "total_connections_received")
                      - number(before, "total_connections_received"))
                  / seconds,
              commandStat(after, "cmdstat_evalsha", "calls") / seconds,
              commandStat(after, "cmdstat_evalsha", "usec_per_call"),
              commandStat(after, "cmdstat_cluster|slots", "calls") / seconds,
              commandStat(after, "cmdstat_cluster|slots", "usec_per_call"),
              cpu * 100 / seconds,
              (number(after, "total_net_input_bytes") - number(before, "total_net_input_bytes"))
                  / seconds,
              (number(after, "total_net_output_bytes") - number(before, "total_net_output_bytes"))
                  / seconds));
    }
    return rows;
  }

  private static double number(Map<String, String> info, String field) {
    String value = info.get(field);
    return value == null ? 0 : Double.parseDouble(value);
  }

  /** A field of an INFO commandstats line such as {@code calls=12,usec=340,usec_per_call=28.33}. */
  private static double commandStat(Map<String, String> info, String command, String field) {
    String line = info.get(command);
    if (line == null) {
      return 0;
    }
    for (String pair : line.split(",")) {
      String[] kv = pair.split("=", 2);
      if (kv[0].equals(field)) {
        return Double.parseDouble(kv[1]);
      }
    }
    return 0;
  }

  /** When a master was killed and its replica took over, and which master it was. */
  record Outage(int killedPort, long killedAtMicros, long promotedAtMicros) {}

  /** Kills the master of {@code identity} and waits for its replica's promotion. */
  static Outage failOver(RedisClusterHandle cluster, String identity, PrintStream log) {
    long killedAt = Clock.SYSTEM.micros();
    RedisProcess killed = cluster.killMaster(ClusterStores.slotOf(identity));
    RedisProcess promoted = cluster.awaitFailover(killed, Duration.ofSeconds(30));
    long promotedAt = Clock.SYSTEM.micros();
    log.printf(
        "FleetSimulation: killed master %d; replica %d promoted %.1f s later%n",
        killed.port(), promoted.port(), (promotedAt - killedAt) / 1e6);
    return new Outage(killed.port(), killedAt, promotedAt);
  }

  static void sleepUntil(long epochMillis) throws InterruptedException {
    long wait = epochMillis - System.currentTimeMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
  }

  /** The port of the master serving each slot now, from CLUSTER SLOTS of a live master. */
  static int[] masterPortBySlot(RedisClusterHandle cluster) {
    RedisProcess node = cluster.masters().get(0);
    int[] ports = new int[16_384];
    for (Object range : (List<?>) RedisProbe.once(node.host(), node.port(), "CLUSTER", "SLOTS")) {
      List<?> r = (List<?>) range;
      int port = ((Number) ((List<?>) r.get(2)).get(1)).intValue();
      for (int slot = ((Number) r.get(0)).intValue(); slot <= ((Number) r.get(1)).intValue(); ) {
        ports[slot++] = port;
      }
    }
    return ports;
  }

  /** Adds a child's tally line (identity, window, fields) into {@code tallies}. */
  private static void merge(Map<Long, long[]> tallies, String line) {
    String[] f = line.split(" ");
    long key = Long.parseLong(f[0]) << 40 | Long.parseLong(f[1]);
    long[] sum = tallies.computeIfAbsent(key, k -> new long[FIELDS]);
    for (int i = 0; i < FIELDS; i++) {
      long value = Long.parseLong(f[2 + i]);
      sum[i] = i == MAX_LOCAL_PER_INSTANCE ? Math.max(sum[i], value) : sum[i] + value;
    }
  }

  /** The cumulative distribution of Zipf({@code s}) over ranks 1..n, for {@link #draw}. */
  static double[] zipfCdf(int n, double s) {
    double[] cdf = new double[n];
    double sum = 0;
    for (int k = 1; k <= n; k++) {
      sum += Math.pow(k, -s);
      cdf[k - 1] = sum;
    }
    for (int i = 0; i < n; i++) {
      cdf[i] /= sum;
    }
    return cdf;
  }

  /** The 0-based rank whose cumulative probability first reaches {@code u}. */
  static int draw(double[] cdf, double u) {
    int i = Arrays.binarySearch(cdf, u);
    return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
  }

  /** The phases a window of an identity falls in. */
  enum Phase {
    BEFORE("before the kill (all masters)"),
    FAILOVER_KILLED("kill to handover: the killed master's identities"),
    FAILOVER_OTHERS("kill to handover: the other masters' identities"),
    AFTER("after the handover (all masters)"),
    NO_KILL("no master killed");

    final String title;

    Phase(String title) {
      this.title = title;
    }
  }

  /** What one phase's identity-windows add up to. */
  static final class Row {
    long windows;
    long requests;
    long admittedRedis;
    long admittedLocal;
    long deniedLocal;
    long atOrOverLimit;
    long overAdmitted;
    long excess;
    long maxAdmitted;
    long underAdmitted;
    long shortfall;
    long maxShortfall;
    long withLocal;
    long maxRedisAdmitted;
    long maxLocalPerInstance;
    long overBound;
    long maxInstancesLocal;
    final List<Double> admittedOverLimit = new ArrayList<>();

    /** Windows with no local decision that were not exact: admitted ≠ min(demand, limit). */
    long inexactWithoutLocal;

    void add(long[] t, long limit, long share) {
      long admitted = t[ADMITTED_REDIS] + t[ADMITTED_LOCAL];
      windows++;
      requests += t[DEMAND];
      admittedRedis += t[ADMITTED_REDIS];
      admittedLocal += t[ADMITTED_LOCAL];
      deniedLocal += t[DENIED_LOCAL];
      maxAdmitted = Math.max(maxAdmitted, admitted);
      maxRedisAdmitted = Math.max(maxRedisAdmitted, t[ADMITTED_REDIS]);
      maxLocalPerInstance = Math.max(maxLocalPerInstance, t[MAX_LOCAL_PER_INSTANCE]);
      maxInstancesLocal = Math.max(maxInstancesLocal, t[INSTANCES_LOCAL]);
      if (t[DEMAND] >= limit) {
        atOrOverLimit++;
        admittedOverLimit.add(admitted / (double) limit);
      }
      if (admitted > limit) {
        overAdmitted++;
        excess += admitted - limit;
      }
      long expected = Math.min(t[DEMAND], limit);
      int bucket = 0;
      while (bucket < RATIO_BOUNDS.length && admitted / (double) expected >= RATIO_BOUNDS[bucket]) {
        bucket++;
      }
      byRatio[bucket]++;
      if (admitted < expected) {
        underAdmitted++;
        shortfall += expected - admitted;
        maxShortfall = Math.max(maxShortfall, expected - admitted);
      }
      boolean local = t[ADMITTED_LOCAL] + t[DENIED_LOCAL] > 0;
      if (local) {
        withLocal++;
      } else if (admitted != expected) {
        inexactWithoutLocal++;
      }
      if (admitted > limit + t[INSTANCES_LOCAL] * share) {
        overBound++;
      }
    }

    /** Upper bounds of the buckets of admitted ÷ min(requests, limit), the last one open. */
    static final double[] RATIO_BOUNDS = {0.8, 0.95, 0.999999, 1.000001, 1.1, 1.25, 1.5, 2.0};

    static final String RATIO_HEADER =
        "| phase | < 0.8 | 0.8–0.95 | 0.95–1 | exactly 1 | 1–1.1 | 1.1–1.25 | 1.25–1.5 | 1.5–2 |"
            + " ≥ 2 |";

    /** Windows by admitted ÷ min(requests, limit), bucketed by {@link #RATIO_BOUNDS}. */
    final long[] byRatio = new long[RATIO_BOUNDS.length + 1];

    /** Requests admitted over the limit, in % of the requests. */
    double falseAllowPercent() {
      return requests == 0 ? 0 : 100.0 * excess / requests;
    }

    double quantile(double q) {
      if (admittedOverLimit.isEmpty()) {
        return 0;
      }
      List<Double> sorted = admittedOverLimit.stream().sorted().toList();
      return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(q * sorted.size())));
    }
  }

  /** The tallies, split by phase, and how to print them. */
  static final class Report {
    final Plan plan;
    final Outage outage;
    final List<String> members;
    final List<String> nodes;
    final double seconds;
    final Map<Phase, Row> rows = new LinkedHashMap<>();

    /** The killed master's hottest identity, window by window around the outage. */
    final List<String> hottestTimeline = new ArrayList<>();

    /** The last window in which any of the killed master's identities was decided locally. */
    long lastLocalWindow = Long.MIN_VALUE;

    long killWindow = Long.MAX_VALUE;

    /** What the killed master's identities admitted over the limit, by window from the kill's. */
    final Map<Long, Long> killedExcessByWindow = new TreeMap<>();

    Report(
        Plan plan,
        Map<Long, long[]> tallies,
        int[] masterOfSlot,
        Outage outage,
        List<String> members,
        List<String> nodes,
        double seconds) {
      this.plan = plan;
      this.outage = outage;
      this.members = members;
      this.nodes = nodes;
      this.seconds = seconds;
      long window = plan.windowMillis * 1000;
      int[] portOf = new int[plan.identities];
      for (int i = 0; i < plan.identities; i++) {
        portOf[i] = masterOfSlot[ClusterStores.slotOf(FleetSimulationMember.identity(i))];
      }
      if (outage != null) {
        killWindow = outage.killedAtMicros / window;
        for (Map.Entry<Long, long[]> e : tallies.entrySet()) {
          long[] t = e.getValue();
          int identity = (int) (e.getKey() >>> 40);
          long w = e.getKey() & ((1L << 40) - 1);
          if (portOf[identity] == outage.killedPort && t[ADMITTED_LOCAL] + t[DENIED_LOCAL] > 0) {
            lastLocalWindow = Math.max(lastLocalWindow, w);
          }
        }
      }
      for (Phase phase : Phase.values()) {
        if ((outage == null) == (phase == Phase.NO_KILL)) {
          rows.put(phase, new Row());
        }
      }
      long share = plan.share();
      int hottestKilled = -1;
      for (int i = 0; outage != null && i < plan.identities; i++) {
        if (portOf[i] == outage.killedPort) {
          hottestKilled = i;
          break;
        }
      }
      for (Map.Entry<Long, long[]> e : tallies.entrySet()) {
        int identity = (int) (e.getKey() >>> 40);
        long w = e.getKey() & ((1L << 40) - 1);
        Phase phase = phaseOf(identity, w, portOf);
        long[] t = e.getValue();
        rows.get(phase).add(t, plan.limit, share);
        if (phase == Phase.FAILOVER_KILLED) {
          long excess = Math.max(0, t[ADMITTED_REDIS] + t[ADMITTED_LOCAL] - plan.limit);
          killedExcessByWindow.merge(w - killWindow, excess, Long::sum);
        }
        if (identity == hottestKilled && w >= killWindow - 2 && w <= lastLocalWindow + 3) {
          hottestTimeline.add(
              String.format(
                  Locale.ROOT,
                  "| %+d | %d | %d | %d | %d | %d | %d |",
                  w - killWindow,
                  t[DEMAND],
                  t[ADMITTED_REDIS] + t[ADMITTED_LOCAL],
                  t[ADMITTED_REDIS],
                  t[ADMITTED_LOCAL],
                  t[INSTANCES_LOCAL],
                  t[MAX_LOCAL_PER_INSTANCE]));
        }
      }
    }

    private Phase phaseOf(int identity, long w, int[] portOf) {
      if (outage == null) {
        return Phase.NO_KILL;
      }
      if (w < killWindow) {
        return Phase.BEFORE;
      }
      if (w > Math.max(lastLocalWindow, killWindow) + 1) {
        return Phase.AFTER;
      }
      return portOf[identity] == outage.killedPort ? Phase.FAILOVER_KILLED : Phase.FAILOVER_OTHERS;
    }

    Row row(Phase phase) {
      return rows.get(phase);
    }

    void print(PrintStream out) {
      out.printf(
          Locale.ROOT,
          "%n%d instances in %d JVMs, Redis Cluster 3 masters + 3 replicas; %,.0f decisions/s for"
              + " %d s over %,d identities (Zipf s = %.2f); rule: fixed window, limit %d per %d ms,"
              + " fail_open; local share %d per instance (fleet %s); redis.timeout %d ms, pool %d;"
              + " run took %.0f s%n",
          plan.instances,
          plan.jvms,
          plan.rate,
          plan.seconds,
          plan.identities,
          plan.zipf,
          plan.limit,
          plan.windowMillis,
          plan.share(),
          plan.fleetSize == 0 ? "auto" : "" + plan.fleetSize,
          plan.timeoutMillis,
          plan.poolSize,
          seconds);
      members.forEach(m -> out.println("  " + m));
      if (outage != null) {
        out.printf(
            Locale.ROOT,
            "Killed master %d at window %d; replica promoted after %.1f s; last local decision for"
                + " its identities in window %+d%n",
            outage.killedPort,
            0,
            (outage.promotedAtMicros - outage.killedAtMicros) / 1e6,
            lastLocalWindow - killWindow);
      }
      out.println();
      out.println(
          "| phase | identity-windows | requests | admitted (Redis / local) | windows with demand ≥"
              + " limit | admitted ÷ limit there: p50 / p99 / max | over-admitted windows | excess"
              + " | under-admitted windows | shortfall (max) | windows with local decisions"
              + " | most admitted by Redis | most one instance admitted locally |"
              + " over limit + instances × share |");
      out.println(
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
              + " ---: | ---: |");
      for (Map.Entry<Phase, Row> e : rows.entrySet()) {
        Row r = e.getValue();
        out.printf(
            Locale.ROOT,
            "| %s | %,d | %,d | %,d / %,d | %,d | %s | %,d | %,d | %,d | %,d (%d) | %,d | %d | %d"
                + " | %d |%n",
            e.getKey().title,
            r.windows,
            r.requests,
            r.admittedRedis,
            r.admittedLocal,
            r.atOrOverLimit,
            r.admittedOverLimit.isEmpty()
                ? "–"
                : String.format(
                    Locale.ROOT,
                    "%.2f / %.2f / %.2f",
                    r.quantile(0.5),
                    r.quantile(0.99),
                    r.admittedOverLimit.stream().mapToDouble(d -> d).max().orElse(0)),
            r.overAdmitted,
            r.excess,
            r.underAdmitted,
            r.shortfall,
            r.maxShortfall,
            r.withLocal,
            r.maxRedisAdmitted,
            r.maxLocalPerInstance,
            r.overBound);
      }
      if (outage != null) {
        Row killed = rows.get(Phase.FAILOVER_KILLED);
        out.printf(
            Locale.ROOT,
            "%nThe killed master's identities during the failover: %,d of %,d requests admitted"
                + " over the limit (%.2f %%); by window from the kill's: %s%n",
            killed.excess,
            killed.requests,
            killed.falseAllowPercent(),
            killedExcessByWindow.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%+d: %d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", ")));
      }
      out.println();
      out.println(
          "Each node alive at the end, per second of traffic (counted from the start of traffic;"
              + " clients while every instance was connected, before the kill):");
      out.println();
      out.println(
          "| port | role at the end | clients connected midway | bytes per client midway"
              + " (mem_clients_normal) | connections accepted/s | EVALSHA/s | µs per EVALSHA |"
              + " CLUSTER SLOTS/s | µs per CLUSTER SLOTS | CPU (of one core) | bytes in/s |"
              + " bytes out/s |");
      out.println(
          "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
      nodes.forEach(out::println);
      out.println();
      out.println("Identity-windows by admitted ÷ min(requests, limit) (1 is exact):");
      out.println();
      out.println(Row.RATIO_HEADER);
      out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
      for (Map.Entry<Phase, Row> e : rows.entrySet()) {
        StringBuilder line = new StringBuilder("| " + e.getKey().title + " |");
        for (long count : e.getValue().byRatio) {
          line.append(String.format(Locale.ROOT, " %,d |", count));
        }
        out.println(line);
      }
      if (!hottestTimeline.isEmpty()) {
        out.println();
        out.println(
            "The killed master's hottest identity, window by window (0 = the window of the kill):");
        out.println();
        out.println(
            "| window | requests | admitted | by Redis | locally | instances admitting locally"
                + " | most by one instance |");
        out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        hottestTimeline.stream().sorted(FleetSimulation::byWindow).forEach(out::println);
      }
    }
  }

  private static int byWindow(String a, String b) {
    return Integer.compare(windowOf(a), windowOf(b));
  }

  private static int windowOf(String timelineRow) {
    return Integer.parseInt(timelineRow.split("\\|")[1].trim().replace("+", ""));
  }
}
