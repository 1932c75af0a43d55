package dev.sluice.it.agent;

import java.nio.file.Files;
import java.nio.file.Path;

/** What Maven hands the tests (see the failsafe configuration in it-tests/pom.xml). */
public final class Settings {
  private Settings() {}

  public static String required(String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(property + " is not set: run the tests through mvn verify");
    }
    return value;
  }

  /** A file Maven built, which must exist. */
  public static Path builtFile(String property) {
    Path path = Path.of(required(property));
    if (!Files.isRegularFile(path)) {
      throw new IllegalStateException(property + " names " + path + ", which is not built");
    }
    return path;
  }

  public static Path agentJar() {
    return builtFile("sluice.it.agentJar");
  }
}
