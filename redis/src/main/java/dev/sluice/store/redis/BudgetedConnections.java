package dev.sluice.store.redis;

import java.util.Map;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.providers.ConnectionProvider;

/** The connections of one server or a Sentinel group, each read within its {@link Budget}. */
final class BudgetedConnections implements ConnectionProvider {
  private final ConnectionProvider pool;
  private final int timeoutMillis;

  BudgetedConnections(ConnectionProvider pool, int timeoutMillis) {
    this.pool = pool;
    this.timeoutMillis = timeoutMillis;
  }

  @Override
  public Connection getConnection() {
    return Budget.apply(pool.getConnection(), timeoutMillis);
  }

  @Override
  public Connection getConnection(CommandArguments args) {
    return Budget.apply(pool.getConnection(args), timeoutMillis);
  }

  @Override
  public Map<?, ?> getConnectionMap() {
    return pool.getConnectionMap();
  }

  @Override
  public Map<?, ?> getPrimaryNodesConnectionMap() {
    return pool.getPrimaryNodesConnectionMap();
  }

  @Override
  public void close() throws Exception {
    pool.close();
  }
}
