package dev.sluice.it.redis;

import java.net.URI;

/**
 * A server the harness did not start as a process: a Testcontainers container, or the server named
 * by SLUICE_TEST_REDIS. Commands work; faults do not, as there is no process here to signal.
 */
final class RemoteRedisServer implements RedisServer {
  private final String host;
  private final int port;
  private final String origin;
  private final Runnable onClose;

  RemoteRedisServer(String host, int port, String origin, Runnable onClose) {
    this.host = host;
    this.port = port;
    this.origin = origin;
    this.onClose = onClose;
  }

  /** The server named by a {@code redis://host:port} URI, once it has answered PING. */
  static RemoteRedisServer named(String value) {
    URI uri;
    try {
      uri = URI.create(value.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URI: " + e.getMessage(), e);
    }
    if (!"redis".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
      throw new IllegalArgumentException("expected redis://host:port");
    }
    if (uri.getUserInfo() != null) {
      throw new IllegalArgumentException("credentials are not supported; name an open test server");
    }
    Object reply;
    try {
      reply = RedisProbe.once(uri.getHost(), uri.getPort(), "PING");
    } catch (RuntimeException e) {
      throw new IllegalStateException("did not answer PING: " + e.getMessage(), e);
    }
    if (!"PONG".equals(reply)) {
      throw new IllegalStateException("answered PING with " + reply);
    }
    return new RemoteRedisServer(
        uri.getHost(), uri.getPort(), RedisServers.ENV + "=" + value, () -> {});
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public String describe() {
    return origin + " at " + host + ":" + port;
  }

  @Override
  public void pause() {
    throw unsupported("pause");
  }

  @Override
  public void resume() {
    throw unsupported("resume");
  }

  @Override
  public void kill() {
    throw unsupported("kill");
  }

  @Override
  public void restart() {
    throw unsupported("restart");
  }

  @Override
  public void close() {
    onClose.run();
  }

  @Override
  public String toString() {
    return describe();
  }

  private UnsupportedOperationException unsupported(String fault) {
    return new UnsupportedOperationException(
        fault
            + "() needs a redis-server process the harness started itself, but this server is "
            + describe()
            + ". A test that injects faults gets its server from RedisServers.localProcess().");
  }
}
