package dev.sluice.store;

import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * The Redis store, from a module of its own ({@value #ARTIFACT}), so that an application that
 * counts in memory carries no Redis client: found at run time, with {@link ServiceLoader}, by the
 * class loader that loaded this interface (a web application's, the agent's own). This is all the
 * engine knows of Redis: a {@link RedisTarget} to open a store or the published rules at.
 */
public interface RedisModule {
  /** What an application adds to its build for {@code store.type: redis}. */
  String ARTIFACT = "dev.sluice:sluice-redis";

  /** What a config that names Redis is told when the module is not on the class path. */
  String MISSING =
      "store.type: redis needs the Redis store, which is not on the class path: add "
          + ARTIFACT
          + " (the version of sluice-core) beside sluice-filter or the starter (the agent has it)";

  /**
   * A Redis store at {@code target}, its keys under {@code keyPrefix}; the caller closes it.
   *
   * @param fleetSize JVMs sharing the limits, or 0 to count them through Redis heartbeats
   * @param fleetMin the fewest JVMs a counted fleet is taken for
   * @param maxLocalKeys the most keys each rule decides locally while Redis is down
   */
  Store open(
      RedisTarget target,
      String keyPrefix,
      int fleetSize,
      int fleetMin,
      Clock clock,
      long maxLocalKeys);

  /**
   * A client of its own for the rules published at {@code target} under {@code keyPrefix}, waiting
   * at most {@code timeoutMillis}; the caller closes it.
   */
  RulesPublication publishedRules(RedisTarget target, String keyPrefix, int timeoutMillis);

  /**
   * The module on the class path.
   *
   * @throws IllegalStateException saying {@link #MISSING} when it is not
   */
  static RedisModule find() {
    RedisModule module = RedisModuleFound.MODULE;
    if (module == null) {
      throw new IllegalStateException(MISSING);
    }
    return module;
  }

  /** Whether the module is on the class path. */
  static boolean present() {
    return RedisModuleFound.MODULE != null;
  }

  /** The module {@code loader} sees; null when it sees none. */
  static RedisModule in(ClassLoader loader) {
    Iterator<RedisModule> found = ServiceLoader.load(RedisModule.class, loader).iterator();
    return found.hasNext() ? found.next() : null;
  }
}
