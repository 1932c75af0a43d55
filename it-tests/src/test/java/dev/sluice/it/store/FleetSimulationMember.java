package dev.sluice.it.store;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Decision;
import dev.sluice.core.Limiter;
import dev.sluice.core.RequestView;
import dev.sluice.core.Rules;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * One JVM of the simulated fleet ({@link FleetSimulation}): several limiter instances, each a
 * {@link Limiter} on a {@link RedisStore} of its own (its own cluster client, connection pools,
 * breakers, local share and fleet heartbeat), as that many gateway JVMs would have. It sends its
 * part of the fleet's traffic, open loop at a fixed rate: each request goes to one of its instances
 * at random (a load balancer) for an identity drawn from a Zipf distribution, and every decision is
 * tallied by identity and window.
 *
 * <p>Arguments: {@link FleetSimulation.Plan#memberArgs}. Prints {@code ready fleet <n>} once every
 * instance has counted the whole fleet, waits for {@code go <epoch millis>} on stdin, sends its
 * traffic from that instant for the planned seconds (every loop bounded by that time), writes the
 * tallies to the file named and prints {@code done ...}.
 */
public final class FleetSimulationMember {
  /** Fields of one tally, as written and read back. */
  static final int DEMAND = 0;

  static final int ADMITTED_REDIS = 1;
  static final int ADMITTED_LOCAL = 2;
  static final int DENIED_REDIS = 3;
  static final int DENIED_LOCAL = 4;

  /** The most one instance admitted locally in the window (for the local share's bound). */
  static final int MAX_LOCAL_PER_INSTANCE = 5;

  /** Instances that admitted locally in the window. */
  static final int INSTANCES_LOCAL = 6;

  static final int FIELDS = 7;

  private static final String PATH = "/api/items";

  private FleetSimulationMember() {}

  public static void main(String[] args) throws Exception {
    FleetSimulation.Plan plan = FleetSimulation.Plan.fromMemberArgs(args);
    int jvm = Integer.parseInt(args[args.length - 2]);
    Path out = Path.of(args[args.length - 1]);
    int first = plan.firstInstanceOf(jvm);
    int count = plan.instancesOf(jvm);
    List<RedisStore> stores = new ArrayList<>();
    List<Limiter> limiters = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        limiters.add(
            openInstance(
                plan.seeds(),
                plan.timeoutMillis(),
                plan.poolSize(),
                plan.prefix(),
                plan.fleetSize(),
                ConfigParser.parse("fleet-simulation.yaml", plan.rulesYaml()).rules(),
                stores));
      }
      warmUp(limiters);
      int fleet = awaitFleet(stores, plan);
      System.out.println("ready fleet " + fleet);
      Traffic traffic = new Traffic(plan, limiters, first, plan.ratePerJvm());
      traffic.run(awaitGo());
      traffic.write(out);
      int minFleet = stores.stream().mapToInt(RedisStore::fleetSize).min().orElse(0);
      long openBreakers = stores.stream().mapToInt(s -> s.status().openBreakers()).sum();
      double commands =
          stores.stream().mapToLong(s -> s.status().commands()).sum()
              / (double)
                  Math.max(
                      1, stores.stream().mapToLong(s -> s.status().allRoundTrips().count()).sum());
      // Which breakers are still open, by what their log names: the whole cluster, or a master.
      Map<String, Long> openByTarget =
          stores.stream()
              .flatMap(s -> s.status().breakers().entrySet().stream())
              .filter(e -> !e.getValue().equals(StoreStatus.CLOSED))
              .collect(
                  Collectors.groupingBy(
                      e -> e.getKey().replaceFirst(".*master ", "master "),
                      TreeMap::new,
                      Collectors.counting()));
      System.out.printf(
          "done decisions %d local %d late %d errors %d fleet %d open %d %s commands/roundtrip"
              + " %.2f%n",
          traffic.decisions.get(),
          traffic.local.get(),
          traffic.late.get(),
          traffic.errors.get(),
          minFleet,
          openBreakers,
          openByTarget.toString().replace(" ", ""),
          commands);
      System.out.flush();
    } finally {
      stores.forEach(RedisStore::close);
    }
  }

  /**
   * One instance: a limiter applying {@code rules} on a store of its own (a Redis Cluster client of
   * its own, as a gateway JVM would have), which is added to {@code opened} for closing.
   */
  static Limiter openInstance(
      List<URI> seeds,
      int timeoutMillis,
      int poolSize,
      String prefix,
      int fleetSize,
      Rules rules,
      List<RedisStore> opened) {
    RedisStore store =
        RedisStore.open(
            RedisSettings.cluster(seeds, timeoutMillis, poolSize),
            prefix,
            fleetSize,
            1,
            Clock.SYSTEM,
            MemoryStore.DEFAULT_MAX_KEYS);
    opened.add(store);
    Limiter limiter = new Limiter(store);
    limiter.apply(rules);
    return limiter;
  }

  /**
   * The instant the coordinator's {@code go <epoch millis>} on stdin names; exits if it sends
   * anything else.
   */
  static long awaitGo() throws IOException {
    BufferedReader stdin =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String go = stdin.readLine();
    if (go == null || !go.startsWith("go ")) {
      System.out.println("no go from the coordinator; exiting");
      System.exit(2);
    }
    return Long.parseLong(go.substring(3));
  }

  /** Every instance decides a few times for an identity outside the simulated ones. */
  private static void warmUp(List<Limiter> limiters) {
    for (int round = 0; round < 20; round++) {
      for (Limiter limiter : limiters) {
        limiter.decide(new Request(PATH, "192.0.2." + round));
      }
    }
  }

  /**
   * Waits (at most 20 s) until every instance counts the whole fleet when it is {@code auto}, so
   * each local share divides by the real size; returns the smallest count seen.
   */
  private static int awaitFleet(List<RedisStore> stores, FleetSimulation.Plan plan)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (plan.fleetSize() == 0
        && stores.stream().anyMatch(s -> s.fleetSize() < plan.instances())
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    return stores.stream().mapToInt(RedisStore::fleetSize).min().orElse(0);
  }

  /** The identity of client {@code i} as the rule's {@code key: ip} names it. */
  static String identity(int i) {
    return "ip=" + address(i);
  }

  static String address(int i) {
    return "10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255);
  }

  /**
   * The index of the window boundary the store counted up to. The store decided at some instant
   * between asking and the answer, and reported the time from then to its window's end (a fixed
   * window's reset when allowed, its retry-after when denied), by Redis TIME or, for a local
   * decision, this JVM's clock: the same clock on one machine. So the end lies between {@code
   * earliest} and {@code latest}, and the one boundary there is it, however late the answer came
   * back, as long as that was within a window; a millisecond either way absorbs rounding. A longer
   * stall leaves more than one: the nearest to the middle is taken.
   */
  static long windowEnding(long earliest, long latest, long windowMicros) {
    long slack = 1_000;
    long first = Math.floorDiv(earliest - slack + windowMicros - 1, windowMicros);
    if (first * windowMicros <= latest + slack && (first + 1) * windowMicros > latest + slack) {
      return first;
    }
    return Math.round((earliest + latest) / 2.0 / windowMicros);
  }

  /** The fleet's traffic through this JVM, and its tallies. */
  private static final class Traffic {
    private final FleetSimulation.Plan plan;
    private final List<Limiter> limiters;
    private final int firstInstance;
    private final double rate;
    private final double[] zipf;
    private final long windowMicros;

    /** Tallies by (identity, window); windows relative to {@link #baseWindow}. */
    private final Map<Long, long[]> tallies = new ConcurrentHashMap<>();

    /** Local admissions by (instance, identity, window). */
    private final Map<Long, long[]> localByInstance = new ConcurrentHashMap<>();

    private long baseWindow;
    final AtomicLong decisions = new AtomicLong();
    final AtomicLong local = new AtomicLong();

    /** Requests sent more than a window after their planned instant (the machine fell behind). */
    final AtomicLong late = new AtomicLong();

    /** Decisions that threw: none is expected; the first is printed. */
    final AtomicLong errors = new AtomicLong();

    Traffic(FleetSimulation.Plan plan, List<Limiter> limiters, int firstInstance, double rate) {
      this.plan = plan;
      this.limiters = limiters;
      this.firstInstance = firstInstance;
      this.rate = rate;
      this.zipf = FleetSimulation.zipfCdf(plan.identities(), plan.zipf());
      this.windowMicros = plan.windowMillis() * 1000L;
    }

    void run(long startMillis) throws InterruptedException {
      baseWindow = startMillis * 1000 / windowMicros - 2;
      long startNanos =
          System.nanoTime()
              + TimeUnit.MILLISECONDS.toNanos(startMillis - System.currentTimeMillis());
      long endNanos = startNanos + TimeUnit.SECONDS.toNanos(plan.seconds());
      int threads = plan.threadsPerJvm();
      double interval = 1e9 * threads / rate;
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int index = t;
        Thread worker =
            new Thread(
                () -> {
                  for (long k = 0; ; k++) {
                    long intended = startNanos + (long) ((k + index / (double) threads) * interval);
                    if (intended >= endNanos) {
                      return;
                    }
                    long now = System.nanoTime();
                    if (now < intended) {
                      LockSupport.parkNanos(intended - now);
                    } else if (now - intended > windowMicros * 1000) {
                      late.incrementAndGet();
                    }
                    try {
                      decideOne();
                    } catch (RuntimeException e) {
                      if (errors.getAndIncrement() == 0) {
                        e.printStackTrace(System.out);
                      }
                    }
                  }
                },
                "fleet-traffic-" + t);
        worker.start();
        workers.add(worker);
      }
      long joinDeadline = endNanos + TimeUnit.SECONDS.toNanos(30);
      for (Thread worker : workers) {
        worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinDeadline - System.nanoTime())));
        if (worker.isAlive()) {
          throw new IllegalStateException(worker.getName() + " still runs 30 s after the end");
        }
      }
    }

    private void decideOne() {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      int identity = FleetSimulation.draw(zipf, random.nextDouble());
      int instance = random.nextInt(limiters.size());
      long asked = Clock.SYSTEM.micros();
      Decision decision = limiters.get(instance).decide(new Request(PATH, address(identity)));
      long answered = Clock.SYSTEM.micros();
      Permit permit = decision.permit(0);
      if (permit == null) {
        throw new IllegalStateException("the rule did not count " + address(identity));
      }
      if (!permit.identity().equals(identity(identity))) {
        throw new IllegalStateException(
            "the rule counts " + permit.identity() + ", not " + identity(identity));
      }
      boolean allowed = permit.verdict().allowed();
      long untilEnd =
          allowed ? permit.verdict().resetMicros() : permit.verdict().retryAfterMicros();
      long window =
          windowEnding(asked + untilEnd, answered + untilEnd, windowMicros) - 1 - baseWindow;
      boolean locally = permit.decidedLocally();
      int field =
          allowed
              ? (locally ? ADMITTED_LOCAL : ADMITTED_REDIS)
              : (locally ? DENIED_LOCAL : DENIED_REDIS);
      long key = (long) identity << 20 | window;
      long[] tally = tallies.computeIfAbsent(key, k -> new long[FIELDS]);
      synchronized (tally) {
        tally[DEMAND]++;
        tally[field]++;
      }
      if (locally && allowed) {
        long[] mine =
            localByInstance.computeIfAbsent(
                (long) (firstInstance + instance) << 40 | key, k -> new long[1]);
        synchronized (mine) {
          mine[0]++;
        }
      }
      decisions.incrementAndGet();
      if (locally) {
        local.incrementAndGet();
      }
    }

    /** One line per (identity, window): identity, absolute window index, then the fields. */
    void write(Path out) throws Exception {
      for (Map.Entry<Long, long[]> e : localByInstance.entrySet()) {
        long[] tally = tallies.get(e.getKey() & ((1L << 40) - 1));
        tally[MAX_LOCAL_PER_INSTANCE] = Math.max(tally[MAX_LOCAL_PER_INSTANCE], e.getValue()[0]);
        tally[INSTANCES_LOCAL]++;
      }
      List<String> lines = new ArrayList<>();
      for (Map.Entry<Long, long[]> e : tallies.entrySet()) {
        long identity = e.getKey() >>> 20;
        long window = (e.getKey() & ((1L << 20) - 1)) + baseWindow;
        lines.add(identity + " " + window + " " + join(e.getValue()));
      }
      Collections.sort(lines);
      try (PrintWriter writer =
          new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
        lines.forEach(writer::println);
      }
    }

    private static String join(long[] values) {
      StringBuilder sb = new StringBuilder();
      Arrays.stream(values).forEach(v -> sb.append(sb.length() == 0 ? "" : " ").append(v));
      return sb.toString();
    }
  }

  /** A GET of {@code path} from {@code address}, straight from the client (no proxy). */
  static final class Request implements RequestView {
    private final String path;
    private final String address;

    Request(String path, String address) {
      this.path = path;
      this.address = address;
    }

    @Override
    public String method() {
      return "GET";
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public String remoteAddress() {
      return address;
    }

    @Override
    public String header(String name) {
      return null;
    }

    @Override
    public List<String> headers(String name) {
      return Collections.emptyList();
    }

    @Override
    public String remoteUser() {
      return null;
    }
  }
}
