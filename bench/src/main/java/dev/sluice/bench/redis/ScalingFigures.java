package dev.sluice.bench.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.HeartbeatProbe;
import dev.sluice.store.redis.RedisKey;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;

/**
 * The per-decision figures docs/scaling.md builds its capacity model on, each measured on Redis's
 * side: Redis CPU per decision ({@code INFO cpu} deltas over a bounded load) and per script call
 * ({@code usec_per_call} of {@code EVALSHA}), script calls, read events, round trips and bytes on
 * the wire per decision, for one caller at a time and for 64 callers (pipelined; bundled on a
 * standalone server, not on a cluster), on many keys and on one hot key; then what the fleet
 * heartbeat costs the master holding its key for fleets of 50 to 3,000 JVMs, and Redis memory per
 * key of each algorithm.
 *
 * <p>Two servers, one after the other, each a redis-server started here on a free port of 127.0.0.1
 * (no persistence): a standalone one, and a one-node Redis Cluster (all 16384 slots on one master),
 * which makes the store behave as on a real cluster (one script run per identity, pipelines per
 * master) while everything stays on one process whose counters can be read.
 *
 * <p>Options ({@code --name=value}): {@code warmup} and {@code measure} seconds per phase (2, 6),
 * {@code servers} (standalone,cluster), {@code parts} (cpu,heartbeat,refresh,memory), {@code
 * memory-keys} (100000: every algorithm), {@code memory-large} (1000000: the sliding window alone;
 * empty for none), {@code redis-server}. Bounded: every phase ends by its own clock, every fill
 * within 5 minutes; the whole run takes about 6 minutes with the defaults.
 */
public final class ScalingFigures {
  private static final String PREFIX = "rl";
  private static final long SECOND = 1_000_000L;
  private static final int TIMEOUT_MILLIS = 200;
  private static final int POOL = 32;

  /** One load: an algorithm, callers, identities. */
  private record Load(String name, Algorithm algorithm, int threads, int keys) {}

  /**
   * The same-run baseline: a script that does nothing ({@code return 1}) by EVALSHA, one caller,
   * one call per round trip. What Redis spends on a round trip and a script call alone.
   */
  private static final Load BASELINE = new Load("baseline: EVALSHA of `return 1`", null, 1, 1);

  private static final List<Load> LOADS =
      List.of(
          BASELINE,
          new Load("1 caller, 10k keys", Algorithm.TOKEN_BUCKET, 1, 10_000),
          new Load("1 caller, 10k keys", Algorithm.FIXED_WINDOW, 1, 10_000),
          new Load("1 caller, 10k keys", Algorithm.SLIDING_WINDOW, 1, 10_000),
          new Load("64 callers, 10k keys", Algorithm.SLIDING_WINDOW, 64, 10_000),
          new Load("1 caller, 1 hot key", Algorithm.SLIDING_WINDOW, 1, 1),
          new Load("64 callers, 1 hot key", Algorithm.SLIDING_WINDOW, 64, 1));

  private final Map<String, String> options;

  private ScalingFigures(Map<String, String> options) {
    this.options = options;
  }

  public static void main(String[] args) throws Exception {
    long started = System.nanoTime();
    new ScalingFigures(RedisLoad.options(args)).run();
    System.out.printf(Locale.ROOT, "%nTotal %.0f s%n", (System.nanoTime() - started) / 1e9);
  }

  /** A blank line, then a Markdown table's header: {@code columns} and their alignments. */
  private static void header(String columns, String alignments) {
    System.out.println();
    System.out.println(columns);
    System.out.println(alignments);
  }

  private String option(String name, String otherwise) {
    return options.getOrDefault(name, otherwise);
  }

  private void run() throws Exception {
    String binary = option("redis-server", "redis-server");
    List<String> parts = List.of(option("parts", "cpu,heartbeat,refresh,memory").split(","));
    for (String server : option("servers", "standalone,cluster").split(",")) {
      boolean cluster = server.equals("cluster");
      try (Server redis = cluster ? Server.cluster(binary) : Server.standalone(binary)) {
        System.out.printf("%n## %s (%s)%n", server, redis.local.describe());
        if (parts.contains("cpu")) {
          cpu(redis, cluster);
        }
        if (parts.contains("heartbeat")) {
          heartbeat(redis);
        }
        if (parts.contains("refresh") && cluster) {
          refresh(redis);
        }
        if (parts.contains("memory")) {
          memory(redis, cluster);
        }
      }
    }
  }

  // ---------------------------------------------------------------- Redis CPU per decision

  private void cpu(Server redis, boolean cluster) throws InterruptedException {
    Duration warmup = Duration.ofSeconds(Long.parseLong(option("warmup", "2")));
    Duration measure = Duration.ofSeconds(Long.parseLong(option("measure", "6")));
    header(
        "| load | algorithm | decisions/s | errors | Redis CPU µs/decision | scripts/decision"
            + " | µs/script (usec_per_call) | round trips/decision | commands/round trip"
            + " | reads/decision | bytes in/decision | bytes out/decision |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Load load : LOADS) {
      redis.local.flushAll();
      redis.local.admin().configResetStat();
      try (Contender contender =
          load == BASELINE
              ? new NoOpScript(redis.local.port())
              : new SluiceContender(
                  RedisStore.open(
                      redis.settings(cluster),
                      PREFIX,
                      1,
                      Clock.SYSTEM,
                      MemoryStore.DEFAULT_MAX_KEYS),
                  load.algorithm,
                  SECOND,
                  load.keys)) {
        Map<String, Double> before = redis.stats();
        LoadRun.Result result =
            new LoadRun(contender, load.threads, load.keys, 0, warmup, measure).run();
        Map<String, Double> after = redis.stats();
        double all = result.allCalls();
        double roundTrips = all;
        double commandsPerRoundTrip = 1;
        if (contender instanceof SluiceContender store) {
          StoreStatus status = store.store.status();
          roundTrips = status.allRoundTrips().count();
          commandsPerRoundTrip = status.meanPipelineCommands();
        }
        double scripts = after.get("scripts") - before.get("scripts");
        System.out.printf(
            Locale.ROOT,
            "| %s | %s | %,.0f | %,d | %.2f | %.3f | %.2f | %.3f | %.1f | %.3f | %.0f | %.0f |%n",
            load.name,
            load.algorithm == null ? "–" : load.algorithm.name().toLowerCase(Locale.ROOT),
            result.perSecond(),
            result.errors(),
            (after.get("cpu") - before.get("cpu")) * 1e6 / all,
            scripts / all,
            (after.get("usec") - before.get("usec")) / scripts,
            roundTrips / all,
            commandsPerRoundTrip,
            (after.get("reads") - before.get("reads")) / all,
            (after.get("in") - before.get("in")) / all,
            (after.get("out") - before.get("out")) / all);
      }
    }
  }

  /** The baseline's contender: EVALSHA of a script that returns at once, on its own connection. */
  private static final class NoOpScript implements Contender {
    private final JedisPooled jedis;
    private final String sha;

    NoOpScript(int port) {
      jedis = new JedisPooled(LocalRedis.HOST, port);
      sha = jedis.scriptLoad("return 1");
    }

    @Override
    public boolean take(int key) {
      return Long.valueOf(1).equals(jedis.evalsha(sha, 0));
    }

    @Override
    public void close() {
      jedis.close();
    }
  }

  // ---------------------------------------------------------------- the fleet's heartbeat

  /**
   * A fleet of {@code n} JVMs beating once a second each is {@code n} heartbeat calls a second on
   * the one master holding {@code <prefix>:fleet}: what each costs there, with that many members in
   * the sorted set.
   */
  private void heartbeat(Server redis) {
    header(
        "| fleet (members) | beats timed | µs/beat (usec_per_call) | Redis CPU µs/beat"
            + " | one master's CPU at one beat per JVM per second |",
        "| ---: | ---: | ---: | ---: | ---: |");
    try (JedisPooled jedis = new JedisPooled(LocalRedis.HOST, redis.local.port())) {
      for (int members : new int[] {50, 500, 3_000}) {
        redis.local.flushAll();
        String prefix = "hb" + members;
        for (int i = 0; i < members; i++) {
          HeartbeatProbe.beat(jedis, prefix, "jvm-" + i);
        }
        redis.local.admin().configResetStat();
        Map<String, Double> before = redis.stats();
        int beats = Math.max(6_000, 3 * members);
        long counted = 0;
        for (int i = 0; i < beats; i++) {
          counted = HeartbeatProbe.beat(jedis, prefix, "jvm-" + (i % members));
        }
        Map<String, Double> after = redis.stats();
        if (counted != members) {
          throw new IllegalStateException("the fleet counted " + counted + ", not " + members);
        }
        double usec = (after.get("usec") - before.get("usec")) / beats;
        double cpu = (after.get("cpu") - before.get("cpu")) * 1e6 / beats;
        System.out.printf(
            Locale.ROOT,
            "| %,d | %,d | %.2f | %.2f | %.2f %% |%n",
            members,
            beats,
            usec,
            cpu,
            members * cpu / 1e4);
      }
    }
  }

  // ---------------------------------------------------------------- the slot map's refresh

  /**
   * What each JVM's cluster client costs the node it refreshes its slot map from, once a second
   * (the store's topology refresh): Jedis, given seed nodes, opens a new connection to the first
   * seed that answers, sends CLUSTER SLOTS and closes it. Timed as a Jedis connection with the
   * store's client name, against the same CLUSTER SLOTS on one kept connection.
   */
  private void refresh(Server redis) {
    header(
        "| slot-map read | reads | Redis CPU µs per read | µs per CLUSTER SLOTS (usec_per_call)"
            + " | connections accepted per read | one node's CPU at 1,000 / 3,000 JVMs |",
        "| --- | ---: | ---: | ---: | ---: | ---: |");
    DefaultJedisClientConfig config =
        DefaultJedisClientConfig.builder()
            .clientName("sluice")
            .connectionTimeoutMillis(1_000)
            .socketTimeoutMillis(1_000)
            .build();
    HostAndPort node = new HostAndPort(LocalRedis.HOST, redis.local.port());
    int reads = 3_000;
    for (boolean fresh : new boolean[] {true, false}) {
      redis.local.admin().configResetStat();
      Map<String, Double> before = redis.stats();
      double accepted = redis.local.info("stats", "total_connections_received");
      if (fresh) {
        for (int i = 0; i < reads; i++) {
          try (Jedis jedis = new Jedis(node, config)) {
            jedis.clusterSlots();
          }
        }
      } else {
        try (Jedis jedis = new Jedis(node, config)) {
          for (int i = 0; i < reads; i++) {
            jedis.clusterSlots();
          }
        }
      }
      Map<String, Double> after = redis.stats();
      accepted = redis.local.info("stats", "total_connections_received") - accepted;
      double cpu = (after.get("cpu") - before.get("cpu")) * 1e6 / reads;
      System.out.printf(
          Locale.ROOT,
          "| %s | %,d | %.1f | %.1f | %.2f | %.1f %% / %.1f %% |%n",
          fresh ? "a new connection each (as the store's client does)" : "one kept connection",
          reads,
          cpu,
          Server.stat(redis.local.admin().info("commandstats"), "cluster\\|slots", "usec_per_call"),
          accepted / reads,
          cpu * 1_000 / 1e4,
          cpu * 3_000 / 1e4);
    }
  }

  // ---------------------------------------------------------------- memory per key

  /**
   * {@code memory-keys} identities with one rule of each algorithm in turn, every key with its TTL:
   * the growth of {@code used_memory} per key, and {@code MEMORY USAGE} of one of them.
   */
  private void memory(Server redis, boolean cluster) throws InterruptedException {
    header(
        "| algorithm | keys | used_memory growth | bytes/key (TTL included) | sample key | value"
            + " | MEMORY USAGE | encoding |",
        "| --- | ---: | ---: | ---: | --- | --- | ---: | --- |");
    for (String text : option("memory-keys", "100000").split(",")) {
      int keys = Integer.parseInt(text);
      for (Algorithm algorithm : Algorithm.values()) {
        memory(redis, cluster, algorithm, keys);
      }
    }
    // More keys for the default algorithm alone: the tables' share of a key depends on the count.
    for (String text : option("memory-large", "1000000").split(",")) {
      if (!text.isBlank()) {
        memory(redis, cluster, Algorithm.SLIDING_WINDOW, Integer.parseInt(text));
      }
    }
  }

  private void memory(Server redis, boolean cluster, Algorithm algorithm, int keys)
      throws InterruptedException {
    // One permit of one per key and ten minutes: every key, the bucket's too (empty, full again in
    // ten minutes), outlives the fill and the reading.
    long window = 600 * SECOND;
    Quota quota = Quota.of(1, window, 1);
    redis.local.flushAll();
    Thread.sleep(500);
    double before = redis.local.info("memory", "used_memory");
    try (RedisStore store =
        RedisStore.open(
            redis.settings(cluster), PREFIX, 1, Clock.SYSTEM, MemoryStore.DEFAULT_MAX_KEYS)) {
      Counters counters = store.counters("api", algorithm, window);
      ExecutorService pool = Executors.newFixedThreadPool(8);
      for (int t = 0; t < 8; t++) {
        int first = t;
        pool.execute(
            () -> {
              for (int i = first; i < keys; i += 8) {
                // Fails closed and tries again when decided locally (a timeout on this busy
                // machine): a denial from Redis means the key is there already.
                for (int attempt = 0; attempt < 20; attempt++) {
                  Permit permit =
                      new Permit(counters, Contender.identity(i), quota, 1, OnError.FAIL_CLOSED);
                  store.acquire(List.of(permit));
                  if (!permit.decidedLocally()) {
                    break;
                  }
                  LockSupport.parkNanos(50_000_000);
                }
              }
            });
      }
      pool.shutdown();
      if (!pool.awaitTermination(5, TimeUnit.MINUTES)) {
        pool.shutdownNow();
        throw new IllegalStateException("filling " + keys + " keys took over 5 minutes");
      }
    }
    Thread.sleep(1_500); // lets serverCron finish rehashing the key and expires tables
    double grown = redis.local.info("memory", "used_memory") - before;
    long stored = redis.local.admin().dbSize();
    String sample = RedisKey.of(PREFIX, Contender.identity(keys / 2), "api", algorithm, window);
    System.out.printf(
        Locale.ROOT,
        "| %s | %,d | %,.0f B | %.1f | `%s` | `%s` | %d B | %s |%n",
        algorithm.name().toLowerCase(Locale.ROOT),
        stored,
        grown,
        grown / stored,
        sample,
        redis.local.admin().get(sample),
        redis.local.admin().memoryUsage(sample, 0),
        redis.local.admin().objectEncoding(sample));
    if (stored != keys) {
      System.out.printf("  (expected %,d keys: some decisions did not reach Redis)%n", keys);
    }
  }

  // ---------------------------------------------------------------- the server

  /** A redis-server of this run: standalone, or a one-node cluster serving every slot itself. */
  private static final class Server implements AutoCloseable {
    final LocalRedis local;

    private Server(LocalRedis local) {
      this.local = local;
    }

    static Server standalone(String binary) throws IOException, InterruptedException {
      return new Server(LocalRedis.start(binary));
    }

    static Server cluster(String binary) throws IOException, InterruptedException {
      LocalRedis local =
          LocalRedis.start(binary, "cluster-enabled yes", "cluster-config-file nodes.conf");
      local.admin().clusterAddSlotsRange(0, 16_383);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!local.admin().clusterInfo().contains("cluster_state:ok")) {
        if (System.nanoTime() > deadline) {
          local.close();
          throw new IllegalStateException("the one-node cluster never said cluster_state:ok");
        }
        Thread.sleep(50);
      }
      return new Server(local);
    }

    RedisSettings settings(boolean cluster) {
      URI uri = URI.create("redis://" + LocalRedis.HOST + ":" + local.port());
      return cluster
          ? RedisSettings.cluster(List.of(uri), TIMEOUT_MILLIS, POOL)
          : RedisSettings.standalone(uri, TIMEOUT_MILLIS, POOL);
    }

    /**
     * Script calls and their microseconds ({@code INFO commandstats}: EVAL and EVALSHA), read
     * events, CPU seconds, bytes in and out.
     */
    Map<String, Double> stats() {
      String commands = local.admin().info("commandstats");
      Map<String, Double> stats = new HashMap<>(local.stats());
      stats.put("scripts", stat(commands, "eval", "calls") + stat(commands, "evalsha", "calls"));
      stats.put("usec", stat(commands, "eval", "usec") + stat(commands, "evalsha", "usec"));
      stats.put("in", local.info("stats", "total_net_input_bytes"));
      stats.put("out", local.info("stats", "total_net_output_bytes"));
      return stats;
    }

    static double stat(String commandstats, String command, String field) {
      Matcher m =
          Pattern.compile("cmdstat_" + command + ":.*?\\b" + field + "=([0-9.]+)")
              .matcher(commandstats);
      return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    @Override
    public void close() {
      local.close();
    }
  }
}
