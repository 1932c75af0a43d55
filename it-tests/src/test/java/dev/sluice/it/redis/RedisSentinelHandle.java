package dev.sluice.it.redis;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A master, one replica and three sentinels (quorum 2) watching it as {@value #MASTER_NAME}, all
 * redis-server processes on loopback. Sentinels call a master down after 1 s without an answer, so
 * a failover takes a few seconds.
 */
public final class RedisSentinelHandle implements AutoCloseable {
  public static final String MASTER_NAME = "mymaster";
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(2);

  private final List<RedisProcess> servers;
  private final List<RedisProcess> sentinels;

  private RedisSentinelHandle(List<RedisProcess> servers, List<RedisProcess> sentinels) {
    this.servers = List.copyOf(servers);
    this.sentinels = List.copyOf(sentinels);
  }

  static RedisSentinelHandle start(RedisBinary binary) {
    List<RedisProcess> servers = new ArrayList<>();
    List<RedisProcess> sentinels = new ArrayList<>();
    try {
      RedisProcess master = start(binary, servers, "sentinel-master", RedisProcess.Kind.SERVER);
      String address = master.host() + " " + master.port();
      RedisProcess replica =
          start(
              binary,
              servers,
              "sentinel-replica",
              RedisProcess.Kind.SERVER,
              "replicaof " + address);
      // Synced before the sentinels start, so their first INFO of the master lists the replica.
      Await.until(
          replica + " to sync with " + master,
          SETTLE_TIMEOUT,
          () -> "up".equals(role(replica).get("master_link_status")),
          () -> master.describe() + "\n" + replica.describe());
      for (int i = 0; i < 3; i++) {
        start(
            binary,
            sentinels,
            "sentinel-" + i,
            RedisProcess.Kind.SENTINEL,
            "sentinel monitor " + MASTER_NAME + " " + address + " 2",
            "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
            "sentinel failover-timeout " + MASTER_NAME + " 3000");
      }
      RedisSentinelHandle handle = new RedisSentinelHandle(servers, sentinels);
      handle.awaitSentinelsKnowEachOther();
      return handle;
    } catch (RuntimeException e) {
      try {
        Processes.closeAll(Stream.concat(sentinels.stream(), servers.stream()).toList());
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  public String masterName() {
    return MASTER_NAME;
  }

  public List<RedisProcess> sentinels() {
    return sentinels;
  }

  /** {@code redis://127.0.0.1:port} of each sentinel. */
  public List<String> sentinelUris() {
    return sentinels.stream().map(RedisServer::uri).toList();
  }

  /** The master and the replica, in start order; after a failover the replica is the master. */
  public List<RedisProcess> servers() {
    return servers;
  }

  /** The master's address as the first live sentinel reports it now. */
  public InetSocketAddress masterAddress() {
    return masterAddress(
        sentinels.stream()
            .filter(RedisProcess::isAlive)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no sentinel is running")));
  }

  /** The server at {@link #masterAddress()}. */
  public RedisProcess master() {
    return server(masterAddress().getPort());
  }

  /** SIGKILLs the current master and returns it. */
  public RedisProcess killMaster() {
    RedisProcess master = master();
    master.kill();
    return master;
  }

  /** Enough for a promotion delayed by TILT mode (30 s), which a starved sentinel enters. */
  public static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(45);

  /**
   * Waits until every live sentinel names a master other than {@code killed}, and that server says
   * it is a master; returns it.
   */
  public RedisProcess awaitFailover(RedisServer killed, Duration timeout) {
    return Await.until(
        "the sentinels to promote a server other than " + killed,
        timeout,
        () -> {
          List<Integer> named = new ArrayList<>();
          for (RedisProcess sentinel : sentinels) {
            if (sentinel.isAlive()) {
              named.add(masterAddress(sentinel).getPort());
            }
          }
          int port = named.get(0);
          if (port == killed.port() || !named.stream().allMatch(p -> p == port)) {
            return null;
          }
          RedisProcess promoted = server(port);
          return "master".equals(role(promoted).get("role")) ? promoted : null;
        },
        this::diagnostics);
  }

  @Override
  public void close() {
    Processes.closeAll(Stream.concat(sentinels.stream(), servers.stream()).toList());
  }

  private static RedisProcess start(
      RedisBinary binary,
      List<RedisProcess> into,
      String name,
      RedisProcess.Kind kind,
      String... config) {
    RedisProcess process = RedisProcess.start(binary, name, kind, List.of(config));
    into.add(process);
    return process;
  }

  /** Each sentinel sees the master as a master, the replica, and the two other sentinels. */
  private void awaitSentinelsKnowEachOther() {
    Await.until(
        "each sentinel to know the master, its replica and the other two sentinels",
        SETTLE_TIMEOUT,
        () ->
            sentinels.stream()
                .map(RedisSentinelHandle::masterState)
                .allMatch(
                    state ->
                        "master".equals(state.get("flags"))
                            && "1".equals(state.get("num-slaves"))
                            && "2".equals(state.get("num-other-sentinels"))),
        this::diagnostics);
  }

  private RedisProcess server(int port) {
    return servers.stream()
        .filter(server -> server.port() == port)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no server of this setup on port " + port));
  }

  private static InetSocketAddress masterAddress(RedisProcess sentinel) {
    List<?> reply = (List<?>) ask(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
    return new InetSocketAddress((String) reply.get(0), Integer.parseInt((String) reply.get(1)));
  }

  /** SENTINEL MASTER's flat list of names and values, as a map. */
  private static Map<String, String> masterState(RedisProcess sentinel) {
    List<?> reply = (List<?>) ask(sentinel, "SENTINEL", "MASTER", MASTER_NAME);
    Map<String, String> state = new LinkedHashMap<>();
    for (int i = 0; i + 1 < reply.size(); i += 2) {
      state.put((String) reply.get(i), (String) reply.get(i + 1));
    }
    return state;
  }

  private static Map<String, String> role(RedisProcess server) {
    try (RedisProbe probe = RedisProbe.connect(server.host(), server.port(), ASK_TIMEOUT)) {
      return probe.info("replication");
    }
  }

  private static Object ask(RedisProcess node, String... command) {
    try (RedisProbe probe = RedisProbe.connect(node.host(), node.port(), ASK_TIMEOUT)) {
      return probe.call(command);
    }
  }

  private String diagnostics() {
    return Stream.concat(servers.stream(), sentinels.stream())
        .map(
            node -> {
              String state;
              try {
                state = sentinels.contains(node) ? "" + masterState(node) : "" + role(node);
              } catch (RuntimeException e) {
                state = "(no answer: " + e.getMessage() + ")";
              }
              return node.describe() + "\n  " + state;
            })
        .collect(Collectors.joining("\n"));
  }
}
