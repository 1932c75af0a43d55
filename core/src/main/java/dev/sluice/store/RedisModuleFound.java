package dev.sluice.store;

/** The {@link RedisModule} the engine's loader sees, looked up once, when first asked for. */
final class RedisModuleFound {
  static final RedisModule MODULE = RedisModule.in(RedisModule.class.getClassLoader());

  private RedisModuleFound() {}
}
