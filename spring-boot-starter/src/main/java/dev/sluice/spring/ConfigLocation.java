package dev.sluice.spring;

import dev.sluice.config.ConfigSource;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the starter reads ratelimit.yaml from, by {@code sluice.config} and its defaults. */
final class ConfigLocation {
  static final String CLASSPATH_DEFAULT = "classpath:" + ConfigSource.DEFAULT;

  private ConfigLocation() {}

  /**
   * {@code configured} when given; else ./ratelimit.yaml (relative to {@code workingDirectory})
   * when it exists, else the resource ratelimit.yaml when {@code loader} has one, else
   * ./ratelimit.yaml, which is then picked up once it appears.
   */
  static String resolve(String configured, Path workingDirectory, ClassLoader loader) {
    if (configured != null && !configured.isBlank()) {
      return configured.trim();
    }
    if (!Files.exists(workingDirectory.resolve(ConfigSource.DEFAULT))
        && loader.getResource(ConfigSource.DEFAULT) != null) {
      return CLASSPATH_DEFAULT;
    }
    return ConfigSource.DEFAULT;
  }
}
