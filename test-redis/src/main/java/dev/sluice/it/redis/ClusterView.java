package dev.sluice.it.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** One node's CLUSTER NODES reply, parsed: who is there, who is master of what, who has failed. */
final class ClusterView {
  /**
   * A line of CLUSTER NODES. {@code slots} holds [first, last] ranges; migrating ones are left out.
   */
  record Node(String id, int port, Set<String> flags, String masterId, List<int[]> slots) {
    boolean isMaster() {
      return flags.contains("master");
    }

    boolean hasFailed() {
      return flags.contains("fail") || flags.contains("fail?");
    }

    boolean serves(int slot) {
      return slots.stream().anyMatch(range -> range[0] <= slot && slot <= range[1]);
    }
  }

  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(2);

  private final List<Node> nodes;

  private ClusterView(List<Node> nodes) {
    this.nodes = nodes;
  }

  /** The cluster as {@code node} sees it now. */
  static ClusterView of(RedisServer node) {
    return parse(ask(node, "NODES"));
  }

  /** The fields of {@code node}'s CLUSTER INFO. */
  static Map<String, String> info(RedisServer node) {
    return RedisProbe.fields(ask(node, "INFO"));
  }

  /** cluster_state:ok with every slot assigned to a master that is not failing. */
  static boolean isOk(Map<String, String> info) {
    String all = "" + KeySlot.SLOTS;
    return "ok".equals(info.get("cluster_state"))
        && all.equals(info.get("cluster_slots_assigned"))
        && all.equals(info.get("cluster_slots_ok"));
  }

  /** The node, its log tail, CLUSTER INFO and CLUSTER NODES, or why it did not answer. */
  static String diagnostics(RedisServer node) {
    String answers;
    try {
      answers = "CLUSTER INFO:\n" + ask(node, "INFO") + "CLUSTER NODES:\n" + ask(node, "NODES");
    } catch (RuntimeException e) {
      answers = "(no answer: " + e.getMessage() + ")";
    }
    return node.describe() + "\n" + answers.indent(2);
  }

  private static String ask(RedisServer node, String subcommand) {
    try (RedisProbe probe = RedisProbe.connect(node.host(), node.port(), ASK_TIMEOUT)) {
      return probe.callString("CLUSTER", subcommand);
    }
  }

  /** Parses lines like {@code <id> 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460}. */
  static ClusterView parse(String clusterNodes) {
    List<Node> nodes = new ArrayList<>();
    for (String line : clusterNodes.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] parts = line.trim().split(" ");
      String address = parts[1].split("[@,]")[0];
      int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
      List<int[]> slots = new ArrayList<>();
      for (int i = 8; i < parts.length; i++) {
        if (!parts[i].startsWith("[")) {
          String[] range = parts[i].split("-");
          int first = Integer.parseInt(range[0]);
          slots.add(new int[] {first, Integer.parseInt(range[range.length - 1])});
        }
      }
      nodes.add(new Node(parts[0], port, Set.of(parts[2].split(",")), parts[3], slots));
    }
    return new ClusterView(nodes);
  }

  List<Node> nodes() {
    return nodes;
  }

  Optional<Node> byPort(int port) {
    return nodes.stream().filter(node -> node.port() == port).findFirst();
  }

  /** The master serving {@code slot}, as this node sees it, unless it is flagged as failed. */
  Optional<Node> masterOf(int slot) {
    return nodes.stream()
        .filter(node -> node.isMaster() && !node.hasFailed() && node.serves(slot))
        .findFirst();
  }

  List<Node> replicasOf(String masterId) {
    return nodes.stream().filter(node -> masterId.equals(node.masterId())).toList();
  }

  List<Node> mastersWithSlots() {
    return nodes.stream().filter(node -> node.isMaster() && !node.slots().isEmpty()).toList();
  }
}
