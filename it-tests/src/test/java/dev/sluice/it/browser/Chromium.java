package dev.sluice.it.browser;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the Chromium to test pages in. Where there is none, CI fails (it installs Debian's {@code
 * chromium}, see .ci/run); a developer's machine reports the browser tests skipped, saying why, so
 * that the test command needs nothing but a JDK — the policy of the Java 25 tests too.
 */
final class Chromium {
  private static final List<String> NAMES =
      List.of("chromium", "chromium-browser", "google-chrome");

  private Chromium() {}

  static Path executable() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      for (String name : NAMES) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate;
        }
      }
    }
    String missing =
        "none of "
            + NAMES
            + " is on the PATH: the status page is tested in a headless Chromium; install one"
            + " (Debian: apt-get install chromium)";
    if ("true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(missing);
    }
    System.err.println("[chromium] not run: " + missing);
    Assumptions.abort(missing + " (on CI this fails)");
    throw new AssertionError("unreachable");
  }
}
