package dev.sluice.bench.agent;

import dev.sluice.bench.redis.LocalRedis;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * HTTP load on the example app (embedded Tomcat 11), with wrk on loopback: no agent, the agent
 * with no matching rule, the agent with a rule that allows every request (memory store), the
 * web.xml Filter with the same rule, and the agent with the Redis store, each in a JVM of its own
 * with the same flags, all started up front and warmed up, then measured in rounds interleaved
 * across the variants (the order rotates every round). Prints Markdown: every run, then per load
 * the medians with same-round ratios to "no agent" and to the Filter, the CPU each side used, and
 * the targets. See docs/performance.md, "The agent".
 *
 * <p>Options ({@code --name=value}): {@code variants} (none,nomatch,memory,filter,redis; also
 * redislf, the Redis rule decided local-first), {@code
 * loads} (wrk threads x connections: 2x32,1x1), {@code rounds} (8), {@code warmup} and {@code
 * measure} (seconds per wrk run: 10, 10), {@code path} (/api/hello), {@code jvm} (the servers'
 * flags, space-separated: -Xms512m -Xmx512m -XX:+AlwaysPreTouch), {@code profile} (variants to
 * record with JFR after the rounds, e.g. memory,filter) and {@code profile-seconds} (30), {@code out}
 * (directory for configs, logs and recordings), {@code root} (the repository), {@code wrk} and
 * {@code redis-server} (binaries), {@code clients} (1: every request from 127.0.0.1; more: each
 * request names one of that many clients at random in a header, and the rule keys on it), {@code
 * sync} (the local-first rule's, 100ms) and {@code server-cpus} (pin every server to these CPUs,
 * {@code taskset -c} syntax; run the driver itself under {@code taskset -c} on the others, so that
 * wrk and Redis run there).
 */
public final class AgentLoad {
  private static final Variant LOCAL_FIRST = Variant.REDIS_LOCAL_FIRST;
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  /** A wrk setting: threads and connections. */
  record Load(int threads, int connections) {
    static Load parse(String s) {
      String[] tc = s.split("x");
      return new Load(Integer.parseInt(tc[0]), Integer.parseInt(tc[1]));
    }

    @Override
    public String toString() {
      return "-t" + threads + " -c" + connections;
    }
  }

  /** One measured wrk run and what each side spent on it (CPU in seconds). */
  record Run(
      int round,
      Load load,
      Variant variant,
      Wrk.Result wrk,
      double seconds,
      Cpu.Times server,
      Cpu.Switches switches,
      double redisCpu,
      double redisScripts,
      Cpu.Machine machine) {
    double serverCpu() {
      return server.total();
    }

    double serverMicrosPerRequest() {
      return serverCpu() * 1e6 / wrk.requests();
    }

    double userMicrosPerRequest() {
      return server.user() * 1e6 / wrk.requests();
    }

    double systemMicrosPerRequest() {
      return server.system() * 1e6 / wrk.requests();
    }

    /** The server's context switches per request, voluntary + involuntary. */
    double switchesPerRequest() {
      return (switches.voluntary() + switches.involuntary()) / (double) wrk.requests();
    }

    double percent(double cpuSeconds) {
      return 100 * cpuSeconds / seconds;
    }

    double others() {
      return machine.busy() - serverCpu() - wrk.cpuSeconds() - redisCpu;
    }
  }

  private final Map<String, String> options;
  private final PrintStream out = System.out;
  private final List<Run> runs = new ArrayList<>();

  private AgentLoad(Map<String, String> options) {
    this.options = options;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      String[] kv = arg.replaceFirst("^--", "").split("=", 2);
      options.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    if (options.containsKey("help")) {
      System.out.println(
          "java -cp bench/target/benchmarks.jar dev.sluice.bench.agent.AgentLoad [--variants=none,"
              + "nomatch,memory,filter,redis (or redislf)] [--loads=2x32,1x1] [--rounds=8]"
              + " [--warmup=10]"
              + " [--measure=10] [--path=/api/hello] [--jvm='-Xms512m -Xmx512m"
              + " -XX:+AlwaysPreTouch'] [--profile=memory,filter] [--profile-seconds=30]"
              + " [--out=DIR] [--root=REPO] [--wrk=wrk] [--redis-server=redis-server]"
              + " [--clients=1] [--sync=100ms] [--server-cpus=0]");
      return;
    }
    List<String> known =
        List.of(
            "variants", "loads", "rounds", "warmup", "measure", "path", "jvm", "profile",
            "profile-seconds", "out", "root", "wrk", "redis-server", "clients", "sync",
            "server-cpus");
    for (String name : options.keySet()) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name + "; see --help");
      }
    }
    long started = System.nanoTime();
    new AgentLoad(options).run();
    System.out.printf(Locale.ROOT, "%nTotal %.0f s%n", (System.nanoTime() - started) / 1e9);
  }

  private String option(String name, String otherwise) {
    return options.getOrDefault(name, otherwise);
  }

  private int intOption(String name, int otherwise) {
    return Integer.parseInt(option(name, Integer.toString(otherwise)));
  }

  private void run() throws Exception {
    List<Variant> variants =
        Arrays.stream(option("variants", "none,nomatch,memory,filter,redis").split(","))
            .map(Variant::of)
            .toList();
    List<Load> loads =
        Arrays.stream(option("loads", "2x32,1x1").split(",")).map(Load::parse).toList();
    int rounds = intOption("rounds", 8);
    int warmup = intOption("warmup", 10);
    int measure = intOption("measure", 10);
    int profileSeconds = intOption("profile-seconds", 30);
    String path = option("path", "/api/hello");
    int clients = intOption("clients", 1);
    String serverCpus = options.get("server-cpus");
    List<String> jvm = List.of(option("jvm", "-Xms512m -Xmx512m -XX:+AlwaysPreTouch").split(" "));
    List<Variant> profiled =
        options.containsKey("profile")
            ? Arrays.stream(options.get("profile").split(",")).map(Variant::of).toList()
            : List.of();

    Wrk wrk = new Wrk(option("wrk", "wrk"));
    String wrkVersion = wrk.check();
    Layout layout = Layout.of(Path.of(option("root", Layout.defaultRoot().toString())));
    Path dir =
        Path.of(
            option(
                "out",
                layout.root().resolve("bench/target/agent-load/run-" + LocalDateTime.now().format(STAMP)).toString()));
    Files.createDirectories(dir);

    LocalRedis redis = null;
    Map<Variant, Server> servers = new LinkedHashMap<>();
    try {
      if (variants.stream().anyMatch(v -> v.redis)) {
        String binary = option("redis-server", "redis-server");
        try {
          redis = LocalRedis.start(binary);
        } catch (IOException e) {
          throw new IllegalStateException(
              "cannot start " + binary + " (" + e.getMessage() + "): the redis variant needs"
                  + " redis-server (Debian: apt-get install -y redis-server), or leave the Redis"
                  + " variants out with --variants=none,nomatch,memory,filter",
              e);
        }
      }
      String sync = options.getOrDefault("sync", "100ms");
      Configs configs =
          Configs.write(dir, layout, path, redis == null ? 6379 : redis.port(), clients, sync);
      long estimate =
          variants.size() * (warmup + 5L) + (long) rounds * loads.size() * variants.size() * measure
              + (long) profiled.size() * profileSeconds;
      out.printf(
          Locale.ROOT,
          "Agent load: %s; JVM %s %s; %d CPUs; load average at start %s; %s%s%n"
              + "servers: %s%s; GET %s; rule: token bucket %,d per 1 s, %s; warm-up %d s,"
              + " %d rounds of %d s per variant and load, interleaved (about %d min)%n"
              + "files: %s%n",
          wrkVersion,
          System.getProperty("java.vm.name"),
          Runtime.version(),
          Runtime.getRuntime().availableProcessors(),
          loadAverage(),
          commit(layout.root()),
          redis == null ? "" : "; " + redis.describe() + " on 127.0.0.1:" + redis.port(),
          String.join(" ", jvm),
          serverCpus == null ? "" : ", pinned to CPUs " + serverCpus,
          path,
          Configs.LIMIT,
          (clients > 1
                  ? "key header:X-Client | ip, requests from " + clients + " clients at random"
                  : "key ip, every request from 127.0.0.1")
              + (variants.contains(LOCAL_FIRST) ? ", local-first with sync " + sync : ""),
          warmup,
          rounds,
          measure,
          Math.round(estimate / 60.0),
          dir);

      out.println("\nStart-up and warm-up (" + loads.get(0) + ", " + warmup + " s each):\n");
      for (Variant v : variants) {
        long t0 = System.nanoTime();
        Server server = Server.start(v, layout, configs, jvm, dir, path, serverCpus);
        servers.put(v, server);
        double ready = (System.nanoTime() - t0) / 1e9;
        Wrk.Result w =
            wrk.run(
                server.url(path),
                loads.get(0).threads(),
                loads.get(0).connections(),
                warmup,
                configs.wrkScript(v));
        out.printf(
            Locale.ROOT,
            "* %s: port %d, pid %d, answering after %.1f s; warm-up %,.0f requests/s, %d errors%n",
            v.label,
            server.port,
            server.pid(),
            ready,
            w.perSecond(),
            w.non2xx() + w.socketErrors());
      }

      out.println("\nEvery run (CPU: 100 % is one core of the machine's " + Runtime.getRuntime().availableProcessors() + "):\n");
      out.println(
          "| round | wrk | variant | requests/s | p50 µs | p75 µs | p90 µs | p99 µs | errors |"
              + " server CPU | server µs CPU/request, user + kernel | wrk CPU | Redis CPU |"
              + " machine busy | others | steal |");
      out.println(
          "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
              + " ---: | ---: | ---: | ---: |");
      for (int round = 1; round <= rounds; round++) {
        for (Load load : loads) {
          for (int i = 0; i < variants.size(); i++) {
            Variant v = variants.get((i + round - 1) % variants.size());
            Run run =
                measure(round, load, servers.get(v), redis, wrk, path, measure, configs.wrkScript(v));
            runs.add(run);
            printRun(run);
          }
        }
      }

      for (Load load : loads) {
        summary(load, variants);
      }

      for (Variant v : profiled) {
        Server server = servers.get(v);
        if (server == null) {
          throw new IllegalArgumentException("--profile names " + v.id + ", not among --variants");
        }
        Path jfr = dir.resolve(v.id + ".jfr");
        Profile.start(server.pid(), "agentload");
        Wrk.Result w =
            wrk.run(
                server.url(path),
                loads.get(0).threads(),
                loads.get(0).connections(),
                profileSeconds,
                configs.wrkScript(v));
        Profile.stop(server.pid(), "agentload", jfr);
        out.printf(
            Locale.ROOT,
            "%nRecorded %s for %d s under %s: %,.0f requests/s (the recording costs some)%n",
            v.label,
            profileSeconds,
            loads.get(0),
            w.perSecond());
        Profile.summarise(jfr, v.label, out);
      }
    } finally {
      for (Server s : servers.values()) {
        s.close();
      }
      if (redis != null) {
        redis.close();
      }
    }
  }

  private Run measure(
      int round,
      Load load,
      Server server,
      LocalRedis redis,
      Wrk wrk,
      String path,
      int seconds,
      Path script)
      throws IOException, InterruptedException {
    boolean onRedis = server.variant.redis;
    Map<String, Double> redisBefore = onRedis ? redis.stats() : null;
    Cpu.Machine machine = Cpu.Machine.now();
    Cpu.Times cpu = Cpu.Times.of(server.pid());
    Cpu.Switches switches = Cpu.Switches.of(server.pid());
    long t0 = System.nanoTime();
    Wrk.Result w = wrk.run(server.url(path), load.threads(), load.connections(), seconds, script);
    double wall = (System.nanoTime() - t0) / 1e9;
    Cpu.Times serverCpu = Cpu.Times.of(server.pid()).minus(cpu);
    Cpu.Switches serverSwitches = Cpu.Switches.of(server.pid()).minus(switches);
    Cpu.Machine used = Cpu.Machine.now().minus(machine);
    double redisCpu = 0;
    double scripts = 0;
    if (onRedis) {
      Map<String, Double> after = redis.stats();
      redisCpu = after.get("cpu") - redisBefore.get("cpu");
      scripts = after.get("scripts") - redisBefore.get("scripts");
    }
    return new Run(
        round, load, server.variant, w, wall, serverCpu, serverSwitches, redisCpu, scripts, used);
  }

  private void printRun(Run r) {
    Wrk.Result w = r.wrk();
    out.printf(
        Locale.ROOT,
        "| %d | %s | %s | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %s | %.0f %% | %.1f + %.1f | %.0f"
            + " %% | %s"
            + " | %.0f %% | %.0f %% | %.1f %% |%n",
        r.round(),
        r.load(),
        r.variant().label,
        w.perSecond(),
        w.p50(),
        w.p75(),
        w.p90(),
        w.p99(),
        errors(w),
        r.percent(r.serverCpu()),
        r.userMicrosPerRequest(),
        r.systemMicrosPerRequest(),
        r.percent(w.cpuSeconds()),
        r.variant().redis
            ? String.format(
                Locale.ROOT,
                "%.0f %% (%.2f requests/script)",
                r.percent(r.redisCpu()),
                w.requests() / Math.max(1, r.redisScripts()))
            : "–",
        r.percent(r.machine().busy()),
        r.percent(r.others()),
        r.percent(r.machine().steal()));
    out.flush();
  }

  private static String errors(Wrk.Result w) {
    long n = w.non2xx() + w.socketErrors() + w.wrongAnswers();
    return n == 0
        ? "0"
        : String.format(
            Locale.ROOT, "**%d** (non-2xx %d, wrong answers %d)", n, w.non2xx(), w.wrongAnswers());
  }

  private List<Run> of(Load load, Variant v) {
    return runs.stream().filter(r -> r.load().equals(load) && r.variant() == v).toList();
  }

  /** Median over rounds of {@code f}. */
  private double median(Load load, Variant v, ToDoubleFunction<Run> f) {
    return median(of(load, v).stream().mapToDouble(f).toArray());
  }

  /** Same-round values of {@code f} for {@code v} against {@code base}, combined by {@code op}. */
  private double[] paired(Load load, Variant v, Variant base, ToDoubleFunction<Run> f, boolean ratio) {
    List<Run> mine = of(load, v);
    List<Run> theirs = of(load, base);
    double[] values = new double[Math.min(mine.size(), theirs.size())];
    for (int i = 0; i < values.length; i++) {
      double a = f.applyAsDouble(mine.get(i));
      double b = f.applyAsDouble(theirs.get(i));
      values[i] = ratio ? a / b : a - b;
    }
    return values;
  }

  private String ratio(Load load, Variant v, Variant base, ToDoubleFunction<Run> f) {
    if (!runs.stream().anyMatch(r -> r.variant() == base)) {
      return "–";
    }
    double[] r = paired(load, v, base, f, true);
    return String.format(
        Locale.ROOT, "%.3f [%.3f–%.3f]", median(r), Arrays.stream(r).min().orElse(Double.NaN), Arrays.stream(r).max().orElse(Double.NaN));
  }

  private void summary(Load load, List<Variant> variants) {
    Variant base = Variant.NONE;
    Variant filter = Variant.FILTER;
    boolean hasBase = variants.contains(base);
    out.printf(
        Locale.ROOT,
        "%nwrk %s: medians of %d rounds; ratios are the median of the same-round ratios [lowest–highest]%n%n",
        load,
        of(load, variants.get(0)).size());
    out.println(
        "| variant | requests/s | ÷ no agent | ÷ Filter | p50 µs | p50 ÷ no agent | p90 µs | p99 µs"
            + " | p99 ÷ no agent | p99 − no agent, µs |");
    out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Variant v : variants) {
      out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %s | %s | %,.0f | %s | %,.0f | %,.0f | %s | %s |%n",
          v.label,
          median(load, v, r -> r.wrk().perSecond()),
          hasBase ? ratio(load, v, base, r -> r.wrk().perSecond()) : "–",
          variants.contains(filter) ? ratio(load, v, filter, r -> r.wrk().perSecond()) : "–",
          median(load, v, r -> r.wrk().p50()),
          hasBase ? ratio(load, v, base, r -> r.wrk().p50()) : "–",
          median(load, v, r -> r.wrk().p90()),
          median(load, v, r -> r.wrk().p99()),
          hasBase ? ratio(load, v, base, r -> r.wrk().p99()) : "–",
          hasBase
              ? String.format(
                  Locale.ROOT, "%+,.0f", median(paired(load, v, base, r -> r.wrk().p99(), false)))
              : "–");
    }
    out.println(
        "\n| variant | server CPU µs/request | ÷ no agent | user µs/request | ÷ no agent | kernel"
            + " µs/request | context switches/request | server CPU | wrk CPU | Redis CPU | Redis µs/request |"
            + " requests/script | machine busy | others | errors |");
    out.println(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
            + " ---: | ---: |");
    for (Variant v : variants) {
      out.printf(
          Locale.ROOT,
          "| %s | %.1f | %s | %.1f | %s | %.1f | %.2f | %.0f %% | %.0f %% | %s | %s | %s | %.0f %% | %.0f %%"
              + " | %d |%n",
          v.label,
          median(load, v, Run::serverMicrosPerRequest),
          hasBase ? ratio(load, v, base, Run::serverMicrosPerRequest) : "–",
          median(load, v, Run::userMicrosPerRequest),
          hasBase ? ratio(load, v, base, Run::userMicrosPerRequest) : "–",
          median(load, v, Run::systemMicrosPerRequest),
          median(load, v, Run::switchesPerRequest),
          median(load, v, r -> r.percent(r.serverCpu())),
          median(load, v, r -> r.percent(r.wrk().cpuSeconds())),
          v.redis
              ? String.format(Locale.ROOT, "%.0f %%", median(load, v, r -> r.percent(r.redisCpu())))
              : "–",
          v.redis
              ? String.format(
                  Locale.ROOT, "%.1f", median(load, v, r -> r.redisCpu() * 1e6 / r.wrk().requests()))
              : "–",
          v.redis
              ? String.format(
                  Locale.ROOT,
                  "%.2f",
                  median(load, v, r -> r.wrk().requests() / Math.max(1, r.redisScripts())))
              : "–",
          median(load, v, r -> r.percent(r.machine().busy())),
          median(load, v, r -> r.percent(r.others())),
          of(load, v).stream()
              .mapToLong(r -> r.wrk().non2xx() + r.wrk().socketErrors() + r.wrk().wrongAnswers())
              .sum());
    }
    if (hasBase && variants.stream().anyMatch(v -> v == Variant.MEMORY || v == LOCAL_FIRST)) {
      out.printf(Locale.ROOT, "%nTargets, wrk %s:%n", load);
    }
    if (hasBase && variants.contains(LOCAL_FIRST)) {
      localFirstTargets(load, base);
    }
    if (hasBase && variants.contains(Variant.MEMORY)) {
      double vsBase = median(paired(load, Variant.MEMORY, base, r -> r.wrk().perSecond(), true));
      target("agent (memory) ÷ no agent, requests/s (>= 0.95)", vsBase, vsBase >= 0.95);
      if (variants.contains(filter)) {
        double vsFilter =
            median(paired(load, Variant.MEMORY, filter, r -> r.wrk().perSecond(), true));
        target(
            "agent (memory) ÷ Filter, requests/s (0.98 to 1.02)",
            vsFilter,
            vsFilter >= 0.98 && vsFilter <= 1.02);
      }
      double added = median(paired(load, Variant.MEMORY, base, r -> r.wrk().p99(), false));
      target("agent (memory) p99 − no agent p99, µs (< 100)", added, added < 100);
    }
  }

  /** Issue 29's targets of a local-first Redis rule against no agent. */
  private void localFirstTargets(Load load, Variant base) {
    boolean oneClient = intOption("clients", 1) == 1;
    double floor = oneClient ? 0.90 : 0.85;
    double vsBase = median(paired(load, LOCAL_FIRST, base, r -> r.wrk().perSecond(), true));
    String what = "agent (Redis, local-first) ";
    target(
        String.format(Locale.ROOT, "%s÷ no agent, requests/s (>= %.2f)", what, floor),
        vsBase,
        vsBase >= floor);
    double added = median(paired(load, LOCAL_FIRST, base, Run::serverMicrosPerRequest, false));
    target(what + "server CPU − no agent, µs/request (<= 5)", added, added <= 5);
    double switches = median(load, LOCAL_FIRST, Run::switchesPerRequest);
    target(what + "context switches/request (<= 0.6)", switches, switches <= 0.6);
    if (oneClient) {
      double redis = median(load, LOCAL_FIRST, r -> r.redisCpu() * 1e6 / r.wrk().requests());
      target(what + "Redis CPU µs/request, one identity (<= 1)", redis, redis <= 1);
    }
  }

  private void target(String what, double value, boolean met) {
    out.printf(Locale.ROOT, "  %-52s %8.3f %s%n", what, value, met ? "met" : "MISSED");
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private static String commit(Path root) {
    try {
      Process p =
          new ProcessBuilder("git", "-C", root.toString(), "rev-parse", "--short", "HEAD")
              .redirectErrorStream(true)
              .start();
      String sha = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor();
      return p.exitValue() == 0 ? "commit " + sha : "commit ?";
    } catch (IOException e) {
      return "commit ?";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "commit ?";
    }
  }
}
