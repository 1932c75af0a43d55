package dev.sluice.it.redis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A redis-server executable, where it came from and the version it reports: the harness writes a
 * config the version understands (Redis 6.2 refuses directives it does not know).
 */
record RedisBinary(Path path, String source, String version) {
  private static final Pattern VERSION = Pattern.compile("\\bv=(\\d+\\.\\d+\\.\\d+)");
  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(10);

  /** Asks {@code path --version}; throws if it does not answer as a redis-server does. */
  static RedisBinary of(Path path, String source) {
    String output = Binaries.run(VERSION_TIMEOUT, List.of(path.toString(), "--version"));
    Matcher version = VERSION.matcher(output);
    if (!version.find()) {
      throw new IllegalStateException(path + " --version does not name a version: " + output);
    }
    return new RedisBinary(path, source, version.group(1));
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
