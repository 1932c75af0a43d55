package dev.sluice.it.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of redis-server processes on loopback, created as {@code redis-cli --cluster
 * create} would ({@link ClusterFormation}). The node timeout is 1 s, so a killed master is replaced
 * within seconds. Methods that ask "who is master" ask a live node at the time of the call.
 */
public final class RedisClusterHandle implements AutoCloseable {
  private static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);
  private static final List<String> NODE_CONFIG =
      List.of(
          "cluster-enabled yes",
          "cluster-config-file nodes.conf",
          "cluster-node-timeout 1000",
          // As a cluster behind a rate limiter should run: while a master fails over, the others
          // keep serving their slots (with "yes" every master answers CLUSTERDOWN until then).
          "cluster-require-full-coverage no",
          // Tests kill masters at will: a replica takes over however long its link has been down.
          "cluster-replica-validity-factor 0");

  private final List<RedisProcess> nodes;
  private final Map<Integer, Integer> slotOfKilled = new ConcurrentHashMap<>();

  private RedisClusterHandle(List<RedisProcess> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  /**
   * A cluster of {@link RedisBinary#local()} processes, {@code masters} (at least 3) each with
   * {@code replicasPerMaster} replicas, formed with all 16384 slots covered. Close it when done.
   */
  public static RedisClusterHandle startLocal(int masters, int replicasPerMaster) {
    return start(RedisBinary.local(), masters, replicasPerMaster);
  }

  static RedisClusterHandle start(RedisBinary server, int masters, int replicasPerMaster) {
    if (masters < 3 || replicasPerMaster < 0) {
      throw new IllegalArgumentException(
          "a cluster needs at least 3 masters and no negative replica count, not "
              + masters
              + " and "
              + replicasPerMaster);
    }
    List<RedisProcess> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
        nodes.add(
            RedisProcess.start(
                server, "cluster-node-" + i, RedisProcess.Kind.CLUSTER_NODE, NODE_CONFIG));
      }
      RedisClusterHandle cluster = new RedisClusterHandle(nodes);
      ClusterFormation.create(nodes, masters, cluster::diagnostics);
      cluster.awaitFormed(masters, replicasPerMaster);
      return cluster;
    } catch (RuntimeException e) {
      try {
        Processes.closeAll(nodes);
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Every node, masters and replicas, in start order; killed ones included. */
  public List<RedisProcess> nodes() {
    return nodes;
  }

  /** {@code redis://127.0.0.1:port} of every node, for a cluster client to start from. */
  public List<String> seedUris() {
    return nodes.stream().map(RedisServer::uri).toList();
  }

  /** The masters serving slots now. */
  public List<RedisProcess> masters() {
    return liveView().mastersWithSlots().stream().map(node -> node(node.port())).toList();
  }

  public List<RedisProcess> replicasOf(RedisServer master) {
    ClusterView view = liveView();
    String id =
        view.byPort(master.port())
            .orElseThrow(() -> new IllegalArgumentException(master + " is not in this cluster"))
            .id();
    return view.replicasOf(id).stream().map(node -> node(node.port())).toList();
  }

  /** The master serving {@code slot} now, as a live node sees it. */
  public RedisProcess masterForSlot(int slot) {
    ClusterView view = liveView();
    return node(
        view.masterOf(slot)
            .orElseThrow(() -> new IllegalStateException("no live master serves slot " + slot))
            .port());
  }

  public RedisProcess masterForKey(String key) {
    return masterForSlot(KeySlot.of(key));
  }

  /** SIGKILLs the master serving {@code slot} and returns it, for {@link #awaitFailover}. */
  public RedisProcess killMaster(int slot) {
    RedisProcess master = masterForSlot(slot);
    slotOfKilled.put(master.port(), slot);
    master.kill();
    return master;
  }

  /**
   * Waits until every live node says cluster_state:ok and names the same live master for the slot
   * that {@code killed} served when {@link #killMaster} killed it; returns that master, the
   * promoted replica.
   */
  public RedisProcess awaitFailover(RedisServer killed, Duration timeout) {
    Integer slot = slotOfKilled.get(killed.port());
    if (slot == null) {
      throw new IllegalArgumentException(killed + " was not killed by killMaster(slot)");
    }
    return Await.until(
        "a replica of " + killed + " to take over slot " + slot + ", and cluster_state:ok",
        timeout,
        () -> {
          List<Integer> owners = new ArrayList<>();
          for (RedisProcess node : alive()) {
            if (!ClusterView.isOk(ClusterView.info(node))) {
              return null;
            }
            owners.add(ClusterView.of(node).masterOf(slot).map(ClusterView.Node::port).orElse(-1));
          }
          int owner = owners.get(0);
          boolean agreed = owners.stream().allMatch(port -> port == owner);
          return agreed && owner != killed.port() && owner != -1 ? node(owner) : null;
        },
        this::diagnostics);
  }

  @Override
  public void close() {
    Processes.closeAll(nodes);
  }

  private void awaitFormed(int masters, int replicasPerMaster) {
    Await.until(
        masters + " masters with " + replicasPerMaster + " replicas each, all slots ok everywhere",
        FORM_TIMEOUT,
        () -> {
          for (RedisProcess node : nodes) {
            Map<String, String> info = ClusterView.info(node);
            if (!ClusterView.isOk(info)
                || !info.get("cluster_known_nodes").equals("" + nodes.size())) {
              return false;
            }
          }
          ClusterView view = ClusterView.of(nodes.get(0));
          for (ClusterView.Node master : view.mastersWithSlots()) {
            if (view.replicasOf(master.id()).size() != replicasPerMaster) {
              return false;
            }
          }
          // Synced replicas, so a master killed later has one ready to take over, with its data.
          for (ClusterView.Node node : view.nodes()) {
            if (!node.isMaster() && !"up".equals(linkStatus(node(node.port())))) {
              return false;
            }
          }
          return view.mastersWithSlots().size() == masters;
        },
        this::diagnostics);
  }

  private ClusterView liveView() {
    RuntimeException last = null;
    for (RedisProcess node : alive()) {
      try {
        return ClusterView.of(node);
      } catch (RuntimeException e) {
        last = e;
      }
    }
    throw new IllegalStateException("no cluster node answers CLUSTER NODES", last);
  }

  private static String linkStatus(RedisProcess replica) {
    try (RedisProbe probe =
        RedisProbe.connect(replica.host(), replica.port(), Duration.ofSeconds(2))) {
      return probe.info("replication").get("master_link_status");
    }
  }

  private List<RedisProcess> alive() {
    return nodes.stream().filter(RedisProcess::isAlive).toList();
  }

  private RedisProcess node(int port) {
    return nodes.stream()
        .filter(node -> node.port() == port)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no node of this cluster on port " + port));
  }

  /** Every node's CLUSTER INFO, CLUSTER NODES and log tail: why the cluster is not ok. */
  private String diagnostics() {
    return nodes.stream().map(ClusterView::diagnostics).collect(Collectors.joining("\n"));
  }
}
