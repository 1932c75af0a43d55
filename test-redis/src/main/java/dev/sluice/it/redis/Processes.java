package dev.sluice.it.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The backstop that no redis-server outlives the JVM, plus signals and cleanup for processes. Every
 * started process is watched until it is closed; a shutdown hook kills the rest and deletes their
 * directories, for test classes that failed before {@code @AfterAll} or forgot to close.
 */
final class Processes {
  private static final Map<Process, Path> WATCHED = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(Processes::reapAll, "sluice-redis-reaper"));
  }

  private Processes() {}

  static void watch(Process process, Path dir) {
    WATCHED.put(process, dir);
  }

  static void forget(Process process) {
    WATCHED.remove(process);
  }

  /**
   * Sends {@code kill -SIGNAL pid}, then, where /proc shows it (Linux), waits until the process is
   * stopped (STOP) or running again (CONT), so the caller's next step sees the new state.
   */
  static void signal(Process process, String signal, String who) {
    if (!process.isAlive()) {
      throw new IllegalStateException("cannot send SIG" + signal + ": not running: " + who);
    }
    // The shell's own kill: a machine with just a JDK and Maven (a slim container image) may have
    // no kill binary (procps).
    Binaries.run(
        Duration.ofSeconds(10), List.of("/bin/sh", "-c", "kill -" + signal + " " + process.pid()));
    Path stat = Path.of("/proc", String.valueOf(process.pid()), "stat");
    if (Files.isReadable(stat) && (signal.equals("STOP") || signal.equals("CONT"))) {
      boolean stop = signal.equals("STOP");
      Await.until(
          "SIG" + signal + " to take effect on " + who,
          Duration.ofSeconds(10),
          () -> isStopped(stat) == stop,
          () -> who);
    }
  }

  /** Closes every one, even when some fail; the first failure is thrown, the others suppressed. */
  static void closeAll(List<RedisProcess> processes) {
    RuntimeException failure = null;
    for (RedisProcess process : processes) {
      try {
        process.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }

  /** The state letter of /proc/PID/stat follows the command name in parentheses: T is stopped. */
  private static boolean isStopped(Path stat) throws IOException {
    String text = Files.readString(stat);
    return text.charAt(text.lastIndexOf(')') + 2) == 'T';
  }

  private static void reapAll() {
    WATCHED.keySet().forEach(Process::destroyForcibly);
    WATCHED.forEach(
        (process, dir) -> {
          try {
            process.waitFor();
            deleteTree(dir);
          } catch (InterruptedException | RuntimeException e) {
            // Best effort on the way out; the process got SIGKILL already.
          }
        });
  }
}
