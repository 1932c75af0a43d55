package dev.sluice.it.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

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

  /**
   * The {@code java} launcher of the second JDK the agent is tested on (Temurin 25 on this kind of
   * machine; {@code -Dsluice.it.java25=<JDK home>} names another). Where there is none, CI fails; a
   * developer's machine reports the Java 25 tests skipped, saying why, so that the test command
   * needs nothing but one JDK.
   */
  public static String java25() {
    Path java = Path.of(required("sluice.it.java25"), "bin", "java");
    if (!Files.isExecutable(java)) {
      String missing =
          java
              + " is not there: the agent is tested on Java 25 too; install a JDK 25 and set"
              + " -Dsluice.it.java25 to its home";
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException(missing);
      }
      System.err.println("[java25] not run: " + missing);
      Assumptions.abort(missing + " (on CI this fails)");
    }
    return java.toString();
  }

  public static Path agentJar() {
    return builtFile("sluice.it.agentJar");
  }
}
