package dev.sluice.it.agent.boot;

import dev.sluice.it.Http;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spring Boot executable jar run as ops run it, {@code java -javaagent:... -jar app.jar}, on
 * 127.0.0.1 at a port the server picks: Boot logs it, after a timestamp, as {@code Tomcat started
 * on port N} (Boot 3), {@code Tomcat started on port(s): N} (Boot 2) or {@code Undertow started on
 * port N}.
 */
public final class BootJar {
  private static final Duration START = Duration.ofSeconds(120);
  private static final Pattern STARTED = Pattern.compile(" started on port\\D*(\\d+)");

  private final ChildJvm jvm;
  private final int port;
  private final Http http;

  private BootJar(ChildJvm jvm, int port) {
    this.jvm = jvm;
    this.port = port;
    this.http = new Http(port);
  }

  /**
   * Starts the jar Maven built, named by the system property {@code jarProperty}, with our agent
   * reading {@code config}.
   */
  static BootJar start(String jarProperty, Path config) throws InterruptedException {
    return start(
        jarProperty, List.of("-javaagent:" + Settings.agentJar() + "=config=" + config), List.of());
  }

  /**
   * Starts the jar named by {@code jarProperty} with {@code options} before {@code -jar} and {@code
   * arguments} (Boot properties such as {@code --spring.data.redis.port=6379}) after it.
   */
  public static BootJar start(String jarProperty, List<String> options, List<String> arguments)
      throws InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ChildJvm.java());
    command.addAll(options);
    command.add("-jar");
    command.add(Settings.builtFile(jarProperty).toString());
    command.add("--server.port=0");
    command.add("--server.address=127.0.0.1");
    command.addAll(arguments);
    ChildJvm jvm = ChildJvm.start(jarProperty, command, Map.of(), null);
    try {
      Matcher started = STARTED.matcher(jvm.awaitLineContaining(" started on port", START));
      if (!started.find()) {
        throw jvm.failure("logged no port");
      }
      return new BootJar(jvm, Integer.parseInt(started.group(1)));
    } catch (InterruptedException | RuntimeException | Error e) {
      jvm.close();
      throw e;
    }
  }

  /** The port Boot logged it serves on. */
  public int port() {
    return port;
  }

  /** The app's JVM. */
  public ChildJvm jvm() {
    return jvm;
  }

  public Http http() {
    return http;
  }

  /** Waits (10 s at most) for a line holding {@code text} since the server said it started. */
  void awaitOutput(String text) throws InterruptedException {
    jvm.awaitLineContaining(text, Duration.ofSeconds(10));
  }

  /** Everything the app printed so far, Boot's log and the agent's lines alike. */
  public String output() {
    return jvm.output();
  }

  /** Stops the app as a service manager would (SIGTERM: Boot shuts down gracefully). */
  public void stop() throws InterruptedException {
    jvm.stop();
  }
}
