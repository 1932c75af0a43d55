package dev.sluice.bench.redis;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Redis benchmark: Sluice's Redis store against Bucket4j's Jedis proxy manager (plain and with
 * its batching optimization) and against Sluice's script sent one EVALSHA per call; then
 * redis-benchmark running Sluice's script (the ceiling), Redis memory per key and an experiment
 * with other key layouts. Everything runs against one redis-server on 127.0.0.1, started here
 * unless {@code --port} names one already running. See docs/performance.md for the results.
 *
 * <p>Options ({@code --name=value}): {@code warmup} and {@code measure} seconds per phase (5, 10),
 * {@code threads} (1,8,64), {@code keys} (1,10000), {@code limiters}
 * (sluice,script,bucket4j,batching; and sendersN for the experiment of {@link PipelinerContender}),
 * {@code parts} (load,open,ceiling,memory,layouts), {@code pool} (connections of the other
 * limiters' pools: as many as threads), {@code port}, {@code redis-server} and {@code
 * redis-benchmark} (the binaries on the PATH).
 */
public final class RedisLoad {
  static final Map<String, String> NAMES =
      Map.of(
          "sluice", "Sluice",
          "script", "EVALSHA per call",
          "bucket4j", "Bucket4j",
          "batching", "Bucket4j batching",
          "none", "no limiter (the driver alone)");

  private final LocalRedis redis;
  private final Map<String, String> options;
  private final Report report = new Report(System.out);
  private final BreakerTrips breakerTrips = BreakerTrips.install();
  private final OperatingSystemMXBean os =
      ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
  private final int[] threads;
  private final int[] keySets;
  private final int maxThreads;

  private RedisLoad(LocalRedis redis, Map<String, String> options) {
    this.redis = redis;
    this.options = options;
    this.threads = ints(option("threads", "1,8,64"));
    this.keySets = ints(option("keys", "1,10000"));
    this.maxThreads = Arrays.stream(threads).max().orElse(1);
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    long started = System.nanoTime();
    try (LocalRedis redis = redis(options)) {
      new RedisLoad(redis, options).run();
    }
    System.out.printf(Locale.ROOT, "%nTotal %.0f s%n", (System.nanoTime() - started) / 1e9);
  }

  /** The server of {@code --port} if given, else a {@code --redis-server} started here. */
  static LocalRedis redis(Map<String, String> options) throws IOException, InterruptedException {
    return options.containsKey("port")
        ? LocalRedis.attach(Integer.parseInt(options.get("port")))
        : LocalRedis.start(options.getOrDefault("redis-server", "redis-server"));
  }

  /** {@code --name=value} arguments by name; a bare {@code --name} is {@code true}. */
  static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      String[] kv = arg.replaceFirst("^--", "").split("=", 2);
      options.put(kv[0], kv.length > 1 ? kv[1] : "true");
    }
    return options;
  }

  private static int[] ints(String list) {
    return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
  }

  private String option(String name, String otherwise) {
    return options.getOrDefault(name, otherwise);
  }

  private void run() throws Exception {
    List<String> parts = List.of(option("parts", "load,open,ceiling,memory,layouts").split(","));
    List<String> limiters =
        Arrays.stream(option("limiters", "sluice,script,bucket4j,batching").split(",")).toList();
    System.out.printf(
        "%s on 127.0.0.1:%d; JVM %s %s, %d MiB heap; %d CPUs; limit %,d per minute (token"
            + " bucket); warmup %s s, measure %s s per phase%n",
        redis.describe(),
        redis.port(),
        System.getProperty("java.vm.name"),
        Runtime.version(),
        Runtime.getRuntime().maxMemory() >> 20,
        Runtime.getRuntime().availableProcessors(),
        Contender.LIMIT,
        option("warmup", "5"),
        option("measure", "10"));
    if (parts.contains("load")) {
      System.out.println(
          "\nClosed loop (each thread sends its next call when the last returns):\n");
      System.out.println(Report.header());
      for (int keys : keySets) {
        for (int t : threads) {
          for (String limiter : limiters) {
            phase(limiter, keys, t, 0);
          }
        }
      }
      report.printRatios(keySets, threads);
    }
    if (parts.contains("open")) {
      System.out.println("\nOpen loop at half of each limiter's highest closed-loop rate:\n");
      System.out.println(Report.header());
      for (int keys : keySets) {
        for (String limiter : limiters) {
          Report.Phase best = report.best(name(limiter), keys);
          if (best != null) {
            // At least 8 threads: one alone cannot keep a schedule of calls tens of microseconds
            // apart, as waking it up at each send time costs about that much.
            int t = Math.max(8, best.threads());
            phase(limiter, keys, t, best.result().perSecond() / 2);
            if (limiter.equals("sluice")) {
              // The driver's own floor: the same schedule with a call that does nothing.
              phase("none", keys, t, best.result().perSecond() / 2);
            }
          }
        }
      }
      report.printOpenLoop();
    }
    if (parts.contains("ceiling")) {
      System.out.println("\nCeiling: redis-benchmark sending Sluice's EVALSHA (no JVM):\n");
      Ceiling ceiling = new Ceiling(option("redis-benchmark", "redis-benchmark"), redis);
      for (int keys : keySets) {
        for (int[] run : new int[][] {{1, 1, 100_000}, {8, 1, 300_000}, {64, 1, 500_000}}) {
          report.add(ceiling.run(run[0], run[1], keys, run[2]));
        }
        report.add(ceiling.run(64, 16, keys, 1_500_000));
      }
    }
    if (parts.contains("memory")) {
      System.out.println("\nRedis memory per key (used_memory growth ÷ keys):");
      report.memory(new MemoryPerKey(redis, System.out).run(33_334));
    }
    if (parts.contains("layouts")) {
      System.out.println("\nThe same counters under other key layouts (an experiment):");
      new KeyLayouts(redis, System.out).run(33_334);
    }
    report.printTargets(maxThreads);
  }

  private static String name(String limiter) {
    return NAMES.containsKey(limiter)
        ? NAMES.get(limiter)
        : "Pipeliner, " + limiter.substring("senders".length()) + " senders";
  }

  private Contender contender(String limiter, int keys) {
    Duration keep = Duration.ofSeconds(10);
    int pool = Integer.parseInt(option("pool", Integer.toString(maxThreads)));
    return switch (limiter) {
      case "sluice" -> new SluiceContender(redis.port(), keys);
      case "none" -> new NoLimiter();
      case "script" -> new ScriptContender(redis.port(), keys, pool);
      case "bucket4j" -> new Bucket4jContender(redis.port(), keys, false, pool, keep);
      case "batching" -> new Bucket4jContender(redis.port(), keys, true, pool, keep);
      default -> {
        if (!limiter.matches("senders\\d+")) {
          throw new IllegalArgumentException("unknown limiter " + limiter);
        }
        yield new PipelinerContender(
            redis.port(), keys, Integer.parseInt(limiter.substring("senders".length())));
      }
    };
  }

  private void phase(String limiter, int keys, int threads, double rate)
      throws InterruptedException {
    redis.flushAll();
    Duration warmup = Duration.ofSeconds(Long.parseLong(option("warmup", "5")));
    Duration measure = Duration.ofSeconds(Long.parseLong(option("measure", "10")));
    try (Contender contender = contender(limiter, keys)) {
      int tripsBefore = breakerTrips.count();
      Map<String, Double> before = redis.stats();
      long cpu = os.getProcessCpuTime();
      long start = System.nanoTime();
      LoadRun.Result result = new LoadRun(contender, threads, keys, rate, warmup, measure).run();
      double seconds = (System.nanoTime() - start) / 1e9;
      double jvmCpu = (os.getProcessCpuTime() - cpu) / 1e9;
      Map<String, Double> after = redis.stats();
      Map<String, Double> delta = new HashMap<>();
      before.forEach((k, v) -> delta.put(k, after.get(k) - v));
      int trips = breakerTrips.count() - tripsBefore;
      report.add(
          new Report.Phase(
              name(limiter), keys, threads, rate, result, delta, jvmCpu, seconds, trips));
    }
  }
}
