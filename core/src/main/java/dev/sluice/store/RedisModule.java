package dev.sluice.store;

import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * The Redis store, from a module of its own ({@value #ARTIFACT}), so that an application that
 * counts in memory carries no Redis client: found at run time, with {@link ServiceLoader}, by the
 * class loader that loaded this interface (a web application's, the agent's own; never the context
 * class loader, see {@link RedisModuleFound}). This is all the engine knows of Redis: a {@link
 * RedisTarget} to open a store or the published rules at.
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
   * @throws IllegalStateException saying {@link #problem()} when there is none to use
   */
  static RedisModule find() {
    RedisModule module = RedisModuleFound.IN_ENGINE.module;
    if (module == null) {
      throw new IllegalStateException(problem());
    }
    return module;
  }

  /** Whether the module is on the class path, and works. */
  static boolean present() {
    return RedisModuleFound.IN_ENGINE.module != null;
  }

  /**
   * Why there is no module to use: {@link #MISSING}, with where one was seen if it was, or what is
   * wrong with the one there; null when it is {@link #present()}.
   */
  static String problem() {
    return RedisModuleFound.IN_ENGINE.problem;
  }

  /**
   * The module {@code loader} sees; null when it sees none.
   *
   * @throws java.util.ServiceConfigurationError when the one it sees cannot be loaded
   */
  static RedisModule in(ClassLoader loader) {
    Iterator<RedisModule> found = ServiceLoader.load(RedisModule.class, loader).iterator();
    return found.hasNext() ? found.next() : null;
  }
}
