package dev.sluice.it.redis;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Redis in a Testcontainers {@code redis:7} container, when a Docker engine answers. Testcontainers
 * is asked only when some Docker endpoint exists at all: without one, its probe answers no within a
 * second but logs an ERROR and a list of failed strategies on every run, which would read as a
 * failure in a passing build. The probe runs on a thread of its own, bounded in time.
 */
final class RedisContainer {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(15);
  private static Optional<String> whyNot;

  private RedisContainer() {}

  /** Empty if Docker answers; otherwise why not. Asked once per JVM. */
  static synchronized Optional<String> whyUnavailable() {
    if (whyNot == null) {
      whyNot = probe();
    }
    return whyNot;
  }

  static RedisServer start() {
    GenericContainer<?> container =
        new GenericContainer<>(DockerImageName.parse("redis:7"))
            .withExposedPorts(6379)
            .withCommand(
                "redis-server", "--save", "", "--appendonly", "no", "--enable-debug-command", "yes")
            .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1))
            .withStartupTimeout(Duration.ofSeconds(120));
    try {
      container.start();
    } catch (RuntimeException e) {
      container.stop();
      throw e;
    }
    return new RemoteRedisServer(
        container.getHost(),
        container.getMappedPort(6379),
        "Testcontainers redis:7 container " + container.getContainerId(),
        container::stop);
  }

  private static Optional<String> probe() {
    List<Path> sockets = socketCandidates();
    boolean endpoint =
        System.getenv("DOCKER_HOST") != null
            || System.getenv().keySet().stream()
                .anyMatch(name -> name.startsWith("TESTCONTAINERS_"))
            || Files.exists(home().resolve(".testcontainers.properties"))
            || sockets.stream().anyMatch(Files::exists)
            || System.getProperty("os.name", "").startsWith("Windows");
    if (!endpoint) {
      return Optional.of(
          "no Docker endpoint (DOCKER_HOST and TESTCONTAINERS_* unset, no"
              + " ~/.testcontainers.properties, no socket at "
              + sockets
              + ")");
    }
    FutureTask<Boolean> task =
        new FutureTask<>(() -> DockerClientFactory.instance().isDockerAvailable());
    Thread thread = new Thread(task, "sluice-docker-probe");
    thread.setDaemon(true);
    thread.start();
    try {
      return task.get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          ? Optional.empty()
          : Optional.of("DockerClientFactory.isDockerAvailable() is false");
    } catch (TimeoutException e) {
      task.cancel(true);
      return Optional.of("Docker did not answer within " + PROBE_TIMEOUT.toSeconds() + " s");
    } catch (ExecutionException e) {
      return Optional.of("probing Docker failed: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while probing Docker");
    }
  }

  /** Where Docker Engine, Docker Desktop, rootless Docker, Colima and Rancher Desktop listen. */
  private static List<Path> socketCandidates() {
    List<Path> sockets = new ArrayList<>();
    sockets.add(Path.of("/var/run/docker.sock"));
    sockets.add(home().resolve(".docker/run/docker.sock"));
    sockets.add(home().resolve(".docker/desktop/docker.sock"));
    sockets.add(home().resolve(".colima/default/docker.sock"));
    sockets.add(home().resolve(".rd/docker.sock"));
    String runtime = System.getenv("XDG_RUNTIME_DIR");
    if (runtime != null) {
      sockets.add(Path.of(runtime, "docker.sock"));
    }
    return sockets;
  }

  private static Path home() {
    return Path.of(System.getProperty("user.home"));
  }
}
