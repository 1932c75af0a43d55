package dev.sluice.it.store;

import dev.sluice.it.jvm.ChildJvm;
import dev.sluice.it.redis.RedisClusterHandle;
import dev.sluice.it.redis.RedisProbe;
import dev.sluice.it.redis.RedisProcess;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.it.store.FleetBoundsMember.Decided;
import dev.sluice.store.Clock;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bounds of issue 29, part 3, measured: a fleet of {@link BoundsPlan#instances} limiter
 * instances against a Redis Cluster of 3 masters with a replica each (the harness's), hot
 * identities at 10 × their limit and thousands near theirs, round-robin and skewed, while every
 * master is paused and then the hot identities' master is killed; {@link BoundsReport} compares
 * what the fleet admitted with the limit and with what an exact limiter would have admitted.
 *
 * <p>The pause is {@code SIGSTOP} of every master ({@code RedisProcess.pause}, as {@code
 * RedisFaultsIT} uses): the whole store stops answering while its sockets stay open, like a stalled
 * host, and the commands sent meanwhile run when it resumes. Meanwhile every node's {@code
 * cluster-node-timeout} is 15 s (the default of a production cluster), so the replicas do not fail
 * their masters over and the fault stays a pause; it is set back before the kill, which the
 * harness's 1 s fails over.
 *
 * <pre>
 * mvn -B -q -o -pl it-tests -am test-compile dependency:build-classpath -DskipTests \
 *     -Dmdep.outputFile=target/test.classpath -Dmdep.includeScope=test
 * java -cp it-tests/target/test-classes:$(cat it-tests/target/test.classpath) \
 *     dev.sluice.it.store.FleetBounds --consistency=local_first --sync-millis=100 [--name=value ...]
 * </pre>
 *
 * <p>{@code --consistency=exact}, or {@code exact,local_first}: both, each algorithm's rules once
 * for each, in one run ({@code FleetBoundsIT}).
 */
public final class FleetBounds {
  private static final String PAUSE_NODE_TIMEOUT = "15000";

  private FleetBounds() {}

  public static void main(String[] args) throws Exception {
    BoundsPlan plan = BoundsPlan.parse(args);
    run(plan, System.out).print(System.out);
  }

  /** A fault: Redis stopped answering at {@code startMicros} and was back at {@code backMicros}. */
  record Fault(String name, long startMicros, long backMicros, int port) {
    /** Every master, or the one of {@code port}. */
    static final int ALL = -1;
  }

  static BoundsReport run(BoundsPlan given, PrintStream log) throws Exception {
    long began = System.nanoTime();
    try (RedisClusterHandle cluster = RedisServers.cluster(3, 1)) {
      int[] masterOfSlot = FleetSimulation.masterPortBySlot(cluster);
      BoundsPlan plan =
          given.withHotAddresses(hotAddresses(masterOfSlot), ClusterStores.seedUris(cluster));
      Path dir = Files.createTempDirectory("sluice-fleet-bounds-");
      List<ChildJvm> children = new ArrayList<>();
      try {
        children.addAll(
            FleetSimulation.startMembers(
                FleetBoundsMember.class, plan.memberArgs(), plan.jvms(), dir));
        List<String> ready = new ArrayList<>();
        for (ChildJvm child : children) {
          ready.add(child.awaitLine("ready", Duration.ofSeconds(90)));
        }
        long startMillis = System.currentTimeMillis() + 1_000;
        for (ChildJvm child : children) {
          child.send("go " + startMillis);
        }
        log.printf(
            "FleetBounds: %s after %.1f s; traffic starts (%s)%n",
            ready, (System.nanoTime() - began) / 1e9, plan);
        List<Fault> faults = new ArrayList<>();
        if (plan.pauseAtSeconds() >= 0) {
          FleetSimulation.sleepUntil(startMillis + 1000L * plan.pauseAtSeconds());
          faults.add(pause(cluster, plan.pauseMillis(), log));
        }
        if (plan.killAtSeconds() >= 0) {
          FleetSimulation.sleepUntil(startMillis + 1000L * plan.killAtSeconds());
          FleetSimulation.Outage outage =
              FleetSimulation.failOver(cluster, "ip=" + plan.hotAddresses().split(",")[0], log);
          faults.add(
              new Fault(
                  "master killed",
                  outage.killedAtMicros(),
                  outage.promotedAtMicros(),
                  outage.killedPort()));
        }
        List<String> done = new ArrayList<>();
        for (ChildJvm child : children) {
          done.add(child.awaitLine("done", Duration.ofSeconds(plan.seconds() + 60)));
          child.awaitSuccess(Duration.ofSeconds(30));
        }
        log.printf("FleetBounds: %s%n", done);
        for (ChildJvm child : children) {
          if (!child.output().contains(" errors 0")) {
            log.printf("FleetBounds: a member's decisions failed:%n%s%n", child.output());
          }
        }
        List<Decided> decided = new ArrayList<>();
        for (int j = 0; j < plan.jvms(); j++) {
          Files.readAllLines(dir.resolve("member-" + j + ".tally")).stream()
              .map(Decided::parse)
              .forEach(decided::add);
        }
        return new BoundsReport(
            plan, decided, faults, masterOfSlot, done, (System.nanoTime() - began) / 1e9);
      } finally {
        children.forEach(ChildJvm::close);
        try (var files = Files.walk(dir)) {
          files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        }
      }
    }
  }

  /**
   * Two addresses on one master, outside those of the identities near their limit: the hot
   * identities, round-robin and skewed, both hit by the kill.
   */
  private static String hotAddresses(int[] masterOfSlot) {
    int first = 1 << 23;
    int port = masterOfSlot[ClusterStores.slotOf(FleetSimulationMember.identity(first))];
    for (int i = first + 1; ; i++) {
      if (masterOfSlot[ClusterStores.slotOf(FleetSimulationMember.identity(i))] == port) {
        return FleetSimulationMember.address(first) + "," + FleetSimulationMember.address(i);
      }
    }
  }

  /**
   * Stops every master for {@code millis}, the nodes' failure detection slowed meanwhile, and
   * restores it once they have all answered again.
   */
  private static Fault pause(RedisClusterHandle cluster, int millis, PrintStream log)
      throws InterruptedException {
    List<RedisProcess> masters = cluster.masters();
    String timeout = nodeTimeout(cluster.nodes(), PAUSE_NODE_TIMEOUT);
    long stopped = Clock.SYSTEM.micros();
    masters.forEach(RedisProcess::pause);
    try {
      Thread.sleep(millis);
    } finally {
      masters.forEach(RedisProcess::resume);
    }
    long resumed = Clock.SYSTEM.micros();
    for (RedisProcess master : masters) {
      RedisProbe.once(master.host(), master.port(), "PING");
    }
    Thread.sleep(2_000); // the cluster bus catches up before failures are detected fast again
    nodeTimeout(cluster.nodes(), timeout);
    log.printf(
        "FleetBounds: paused every master for %.1f s; node timeout %s ms meanwhile%n",
        (resumed - stopped) / 1e6, PAUSE_NODE_TIMEOUT);
    return new Fault("Redis paused", stopped, resumed, Fault.ALL);
  }

  /** Sets every node's cluster-node-timeout to {@code millis}; returns the first node's old one. */
  private static String nodeTimeout(List<RedisProcess> nodes, String millis) {
    String old = null;
    for (RedisProcess node : nodes) {
      List<?> reply =
          (List<?>)
              RedisProbe.once(node.host(), node.port(), "CONFIG", "GET", "cluster-node-timeout");
      old = old == null ? String.valueOf(reply.get(1)) : old;
      RedisProbe.once(node.host(), node.port(), "CONFIG", "SET", "cluster-node-timeout", millis);
    }
    return old;
  }
}
