package dev.sluice.store.redis;

import dev.sluice.store.RedisTarget;

/**
 * Lets tests of other packages (the config parser's) see the credentials the Redis settings log in
 * with, without widening the production API.
 */
public final class RedisAccess {
  private RedisAccess() {}

  public static String user(RedisTarget target) {
    return RedisSettings.of(target).clientConfig().getUser();
  }

  public static String password(RedisTarget target) {
    return RedisSettings.of(target).clientConfig().getPassword();
  }
}
