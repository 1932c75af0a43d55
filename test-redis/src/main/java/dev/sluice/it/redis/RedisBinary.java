package dev.sluice.it.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A redis-server executable, where it came from and the version it reports: the harness writes a
 * config the version understands (Redis 6.2 refuses directives it does not know).
 */
record RedisBinary(Path path, String source, String version) {
  /** The system property that, set to {@value #BUNDLED}, makes every server the bundled one. */
  static final String PROPERTY = "sluice.it.redis";

  static final String BUNDLED = "bundled";
  static final String ON_PATH = "the redis-server on the PATH";

  private static final Pattern VERSION = Pattern.compile("\\bv=(\\d+\\.\\d+\\.\\d+)");
  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(10);
  private static final Set<String> ANNOUNCED = ConcurrentHashMap.newKeySet();
  private static RedisBinary local;

  /** Asks {@code path --version}; throws if it does not answer as a redis-server does. */
  static RedisBinary of(Path path, String source) {
    String output = Binaries.run(VERSION_TIMEOUT, List.of(path.toString(), "--version"));
    Matcher version = VERSION.matcher(output);
    if (!version.find()) {
      throw new IllegalStateException(path + " --version does not name a version: " + output);
    }
    return new RedisBinary(path, source, version.group(1));
  }

  /**
   * The redis-server of every process the tests start, chosen once per JVM: the one on the PATH,
   * else the bundled one ({@code -Dsluice.it.redis=bundled}: always the bundled one).
   */
  static synchronized RedisBinary local() {
    if (local == null) {
      local = choose(bundledOnly(), Binaries.find("redis-server"), BundledRedis::extract);
      announce(local.toString());
    }
    return local;
  }

  /** The choice of {@link #local()}, with its inputs given, so tests can check each path. */
  static RedisBinary choose(boolean bundledOnly, Optional<Path> onPath, Supplier<Path> bundled) {
    if (!bundledOnly && onPath.isPresent()) {
      return of(onPath.get(), ON_PATH);
    }
    return of(bundled.get(), BundledRedis.SOURCE);
  }

  /** Whether {@code -Dsluice.it.redis=bundled} asks for the bundled binary for every server. */
  static boolean bundledOnly() {
    String value = System.getProperty(PROPERTY, "");
    if (value.isBlank()) {
      return false;
    }
    if (!value.equals(BUNDLED)) {
      throw new IllegalStateException(
          "-D" + PROPERTY + "=" + value + " is not understood: the one value is " + BUNDLED);
    }
    return true;
  }

  /** Logs where the tests' Redis comes from, once per JVM for each source and version. */
  static void announce(String sourceAndVersion) {
    if (ANNOUNCED.add(sourceAndVersion)) {
      System.out.println("Redis harness: using " + sourceAndVersion);
    }
  }

  int major() {
    return Integer.parseInt(version.substring(0, version.indexOf('.')));
  }

  /** Source, path and version, e.g. for "Redis harness: using ...". */
  @Override
  public String toString() {
    return source + " (" + path + ") " + version;
  }
}
