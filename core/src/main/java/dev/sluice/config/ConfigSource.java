package dev.sluice.config;

import dev.sluice.support.Bounded;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.Map;

/**
 * Where ratelimit.yaml comes from: the Filter's {@code config} init-param, else the system property
 * {@code sluice.config}, else the environment variable {@code SLUICE_CONFIG}, else {@code
 * ./ratelimit.yaml}. A {@code classpath:} prefix reads a resource; when that resource is a plain
 * file (an exploded WAR) it is watched like any other file.
 */
public final class ConfigSource {
  public static final String PROPERTY = "sluice.config";
  public static final String ENVIRONMENT = "SLUICE_CONFIG";
  public static final String DEFAULT = "ratelimit.yaml";

  /**
   * The most Sluice reads of a file, or of a field of a version published in Redis: far beyond any
   * real config, far below a heap's worth.
   */
  public static final int MAX_BYTES = 1 << 20;

  private static final String CLASSPATH = "classpath:";

  private final String name;
  private final Path file;
  private final ClassLoader loader;
  private final String resource;

  private ConfigSource(String name, Path file, ClassLoader loader, String resource) {
    this.name = name;
    this.file = file;
    this.loader = loader;
    this.resource = resource;
  }

  /** Resolves the location by the order above; {@code explicit} is the init-param, or null. */
  public static ConfigSource locate(
      String explicit, Map<String, String> environment, ClassLoader loader) {
    String location =
        firstGiven(explicit, System.getProperty(PROPERTY), environment.get(ENVIRONMENT), DEFAULT);
    return of(location, loader);
  }

  /**
   * A location as written: a file path, or {@code classpath:name}. A resource is looked up again at
   * every read, so one that is missing at start-up is picked up once it appears.
   */
  public static ConfigSource of(String location, ClassLoader loader) {
    if (!location.startsWith(CLASSPATH)) {
      return new ConfigSource(location, Paths.get(location), null, null);
    }
    String resourceName = location.substring(CLASSPATH.length()).replaceFirst("^/+", "");
    return new ConfigSource(location, null, loader, resourceName);
  }

  /** The first candidate that is not blank, trimmed; null when none is. */
  static String firstGiven(String... candidates) {
    for (String c : candidates) {
      if (c != null && !c.trim().isEmpty()) {
        return c.trim();
      }
    }
    return null;
  }

  /** How messages name this source: the file it is, when it is one. */
  public String name() {
    Path path = file();
    return path != null ? path.toString() : name;
  }

  /** The file to watch for events, or null when there is none (a missing or packed resource). */
  Path file() {
    if (file != null) {
      return file;
    }
    URL url = resourceUrl();
    if (url != null && "file".equals(url.getProtocol())) {
      try {
        return Paths.get(url.toURI());
      } catch (URISyntaxException | IllegalArgumentException e) {
        return null; // not a plain path after all: read it as a resource
      }
    }
    return null;
  }

  private URL resourceUrl() {
    return loader == null ? null : loader.getResource(resource);
  }

  /**
   * The current content, or null if there is none. Content beyond {@link #MAX_BYTES} is rejected
   * without being read: it would otherwise be read whole, every second, by the watcher.
   */
  byte[] read() throws IOException, InvalidConfigException {
    Path path = file();
    if (path != null) {
      try {
        if (Files.size(path) > MAX_BYTES) {
          throw tooLarge(name());
        }
        try (InputStream in = Files.newInputStream(path)) {
          return readBounded(in, name());
        }
      } catch (NoSuchFileException e) {
        return null;
      }
    }
    URL url = file == null ? resourceUrl() : null;
    if (url == null) {
      return null;
    }
    try (InputStream in = url.openStream()) {
      return readBounded(in, name());
    }
  }

  /**
   * All of {@code in}, or an error naming {@code file} once more than {@link #MAX_BYTES} came: a
   * file can grow after its size was checked, and a resource has none to check.
   */
  static byte[] readBounded(InputStream in, String file)
      throws IOException, InvalidConfigException {
    byte[] content = Bounded.read(in, MAX_BYTES);
    if (content == null) {
      throw tooLarge(file);
    }
    return content;
  }

  private static InvalidConfigException tooLarge(String file) {
    return new InvalidConfigException(
        Collections.singletonList(
            new ConfigError(
                file,
                0,
                0,
                "",
                "the file is larger than 1 MiB (" + MAX_BYTES + " bytes), the most Sluice reads")));
  }

  @Override
  public String toString() {
    return name();
  }
}
