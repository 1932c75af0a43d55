package dev.sluice.store;

import java.util.ServiceConfigurationError;

/**
 * The {@link RedisModule} the engine's loader sees, looked up once, when first asked for; or why
 * there is none to use. A module that is there but broken (a sluice-redis of another version than
 * sluice-core's, whose provider no longer fits) is a problem named here once, not an error thrown
 * from this class's initialisation, which would make every later use a bare {@code
 * NoClassDefFoundError}.
 */
final class RedisModuleFound {
  static final RedisModuleFound IN_ENGINE =
      lookUp(RedisModule.class.getClassLoader(), Thread.currentThread().getContextClassLoader());

  /** The module; null when there is none to use. */
  final RedisModule module;

  /** Why {@link #module} is null: what to add, or what is wrong with the one there. */
  final String problem;

  private RedisModuleFound(RedisModule module, String problem) {
    this.module = module;
    this.problem = problem;
  }

  /**
   * The module {@code engine} (the loader of sluice-core) sees. {@code context}, the thread's
   * context class loader, is only asked when there is none, to say why: sluice-redis in a web
   * application with sluice-core in the server's lib/ is not seen, as a shared class must not hold
   * a web application's classes.
   */
  static RedisModuleFound lookUp(ClassLoader engine, ClassLoader context) {
    try {
      RedisModule module = RedisModule.in(engine);
      if (module != null) {
        return new RedisModuleFound(module, null);
      }
    } catch (ServiceConfigurationError | LinkageError e) {
      return new RedisModuleFound(null, broken(e));
    }
    return new RedisModuleFound(null, RedisModule.MISSING + elsewhere(engine, context));
  }

  private static String broken(Throwable e) {
    Throwable cause = e.getCause() == null ? e : e.getCause();
    return "store.type: redis needs the Redis store, and the one on the class path cannot be"
        + " loaded ("
        + e
        + (cause == e ? "" : "; caused by " + cause)
        + "): "
        + RedisModule.ARTIFACT
        + " must be the version of sluice-core, loaded by the same class loader";
  }

  /** A hint when {@code context} sees a module that {@code engine} does not. */
  private static String elsewhere(ClassLoader engine, ClassLoader context) {
    if (context == null || context == engine) {
      return "";
    }
    try {
      if (RedisModule.in(context) == null) {
        return "";
      }
    } catch (ServiceConfigurationError | LinkageError e) {
      return "";
    }
    return "; there is one in the application's own class path, but sluice-core is loaded by a"
        + " loader above it (a server's lib/): put "
        + RedisModule.ARTIFACT
        + " beside sluice-core, or both in the application";
  }
}
