package dev.sluice.it.redis;

/**
 * One Redis server for tests, wherever it runs. Close it when the test class is done (try with
 * resources, or {@code @AfterAll}); closing a server the harness did not start leaves it running.
 *
 * <p>Fault injection works only on a redis-server process the harness started itself ({@link
 * RedisServers#localProcess()}, cluster and sentinel nodes); on a container or a server named by
 * SLUICE_TEST_REDIS those methods throw UnsupportedOperationException.
 */
public interface RedisServer extends AutoCloseable {
  String host();

  int port();

  /** {@code redis://host:port}. */
  default String uri() {
    return "redis://" + host() + ":" + port();
  }

  /** What and where this server is, with the tail of its log if there is one: for messages. */
  String describe();

  /** SIGSTOP: the server keeps its connections and accepts new ones but answers nothing. */
  void pause();

  /** SIGCONT after {@link #pause()}: commands sent meanwhile are answered now. */
  void resume();

  /** SIGKILL: connections are reset and the port refuses new ones. Does nothing if already dead. */
  void kill();

  /**
   * Starts the server again on the same port, killing it first if it runs. It comes back empty:
   * nothing is persisted. A cluster node keeps its nodes.conf, so it rejoins as the same node.
   */
  void restart();

  /** FLUSHALL: every database emptied. */
  default void flushAll() {
    RedisProbe.once(host(), port(), "FLUSHALL");
  }

  /** A new connection to this server; the caller closes it. */
  default RedisProbe probe() {
    return RedisProbe.connect(host(), port());
  }

  @Override
  void close();
}
