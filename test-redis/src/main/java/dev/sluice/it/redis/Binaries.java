package dev.sluice.it.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finding an installed redis-server, and running short commands with a bound on their time. Only
 * the PATH is searched, as README.md says: CI hides redis-server from it to prove that the tests
 * run without one (.ci/run), which a search of other directories would defeat.
 */
final class Binaries {
  private Binaries() {}

  static Optional<Path> find(String name) {
    for (Path dir : searchPath()) {
      Path candidate = dir.resolve(name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  static String notFound(String name) {
    return name + " not found on PATH";
  }

  /**
   * Runs a command to completion within {@code timeout} and returns its output (stdout and stderr
   * together); a non-zero exit or a timeout is an exception carrying the output.
   */
  static String run(Duration timeout, List<String> command) {
    Path output = null;
    Process process = null;
    try {
      output = Files.createTempFile("sluice-redis-cmd", ".out");
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      String text = Files.readString(output, UTF_8);
      if (!exited) {
        throw new IllegalStateException(
            "still running after " + timeout.toMillis() + " ms: " + command + "\n" + text);
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            "exit code " + process.exitValue() + " from " + command + "\n" + text);
      }
      return text;
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + command, e);
    } finally {
      if (process != null) {
        process.destroyForcibly();
      }
      if (output != null) {
        output.toFile().delete();
      }
    }
  }

  private static List<Path> searchPath() {
    Set<String> dirs = new LinkedHashSet<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        if (!dir.isEmpty()) {
          dirs.add(dir);
        }
      }
    }
    List<Path> paths = new ArrayList<>();
    dirs.forEach(dir -> paths.add(Path.of(dir)));
    return paths;
  }
}
