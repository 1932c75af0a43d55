package dev.sluice.it.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Proves the shutdown hook: a child JVM starts a server and exits without closing it, as a test
 * class that fails before {@code @AfterAll} would; the server and its directory must be gone.
 */
final class OrphanCheck {
  private OrphanCheck() {}

  /** The child JVM: starts a server, says which, and exits without closing it. */
  public static void main(String[] args) {
    RedisProcess server = RedisServers.localProcess();
    System.out.println("pid=" + server.pid() + " dir=" + server.logFile().getParent());
  }

  static void assertShutdownHookReaps() {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
    // The harness's settings (which redis-server), as Maven gave them; the child runs in this
    // JVM's working directory, so the bundled binary is found where this JVM copied it.
    System.getProperties().stringPropertyNames().stream()
        .filter(name -> name.startsWith("sluice.it."))
        .forEach(name -> command.add("-D" + name + "=" + System.getProperty(name)));
    command.add(OrphanCheck.class.getName());
    String output = Binaries.run(Duration.ofSeconds(60), command);
    Matcher started = Pattern.compile("pid=(\\d+) dir=(\\S+)").matcher(output);
    assertThat(started.find()).as("the child JVM's output:\n" + output).isTrue();
    long pid = Long.parseLong(started.group(1));
    Await.until(
        "redis-server pid " + pid + " of the exited JVM to be gone",
        Duration.ofSeconds(10),
        () -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty(),
        () -> "still running: " + ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()));
    assertThat(Path.of(started.group(2))).doesNotExist();
  }
}
