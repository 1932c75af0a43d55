package dev.sluice.store.redis;

/**
 * Lets tests of other packages (the config parser's) see the credentials the Redis settings log in
 * with, without widening the production API.
 */
public final class RedisAccess {
  private RedisAccess() {}

  public static String user(RedisSettings settings) {
    return settings.clientConfig().getUser();
  }

  public static String password(RedisSettings settings) {
    return settings.clientConfig().getPassword();
  }
}
