package dev.sluice.it.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * What {@code redis-cli --cluster create} does, in plain commands, so that no redis-cli is needed
 * (the redis-server bundled for machines without Redis comes alone): distinct config epochs, the
 * slots split evenly among the first nodes, every node met, then the rest made their replicas.
 */
final class ClusterFormation {
  private static final Duration MEET_TIMEOUT = Duration.ofSeconds(30);

  private ClusterFormation() {}

  /**
   * Makes the first {@code masters} of {@code nodes} masters and gives them the others as replicas
   * in turn; returns once every replica has been told its master. The caller awaits the result.
   */
  static void create(List<RedisProcess> nodes, int masters, Supplier<String> diagnostics) {
    for (int i = 0; i < nodes.size(); i++) {
      // As redis-cli does: distinct epochs from the start, rather than equal ones that the nodes
      // tell apart afterwards, bumping one at a time.
      call(nodes.get(i), "CLUSTER", "SET-CONFIG-EPOCH", "" + (i + 1));
    }
    for (int i = 0; i < masters; i++) {
      int first = i * KeySlot.SLOTS / masters;
      int end = (i + 1) * KeySlot.SLOTS / masters;
      // ADDSLOTS, not ADDSLOTSRANGE: Redis 6.2 has no ranges.
      List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
      for (int slot = first; slot < end; slot++) {
        command.add("" + slot);
      }
      call(nodes.get(i), command.toArray(String[]::new));
    }
    RedisProcess first = nodes.get(0);
    for (RedisProcess node : nodes.subList(1, nodes.size())) {
      call(first, "CLUSTER", "MEET", node.host(), "" + node.port());
    }
    Await.until(
        "every node to know all " + nodes.size() + ", past the handshake",
        MEET_TIMEOUT,
        () -> nodes.stream().allMatch(node -> knowsAll(node, nodes.size())),
        diagnostics);
    List<String> masterIds =
        nodes.subList(0, masters).stream().map(ClusterFormation::myId).toList();
    for (int i = masters; i < nodes.size(); i++) {
      call(nodes.get(i), "CLUSTER", "REPLICATE", masterIds.get((i - masters) % masters));
    }
  }

  private static boolean knowsAll(RedisProcess node, int count) {
    List<ClusterView.Node> known = ClusterView.of(node).nodes();
    return known.size() == count
        && known.stream()
            .noneMatch(n -> n.flags().contains("handshake") || n.flags().contains("noaddr"));
  }

  private static String myId(RedisProcess node) {
    return (String) call(node, "CLUSTER", "MYID");
  }

  private static Object call(RedisProcess node, String... command) {
    try (RedisProbe probe = node.probe()) {
      return probe.call(command);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          command[0] + " " + command[1] + " failed on " + node.describe(), e);
    }
  }
}
