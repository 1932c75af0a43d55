package dev.sluice.it.agent;

import dev.sluice.it.Http;
import dev.sluice.it.jvm.ChildJvm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A container JVM started with {@code -javaagent:sluice-agent.jar=config=...}, serving one web app,
 * for the life of a test class.
 */
public final class AgentServer implements AutoCloseable {
  private static final Duration START = Duration.ofSeconds(90);

  private final ChildJvm jvm;
  private final int port;
  private final Http http;

  private AgentServer(ChildJvm jvm, int port) {
    this.jvm = jvm;
    this.port = port;
    this.http = new Http(port);
  }

  /** Starts {@code container} with the agent reading the app's config. */
  public static AgentServer start(AgentContainer container, AgentWebApp app) {
    return start(container, app, ChildJvm.java());
  }

  /** The same, on the JVM whose {@code java} launcher is {@code java}. */
  public static AgentServer start(AgentContainer container, AgentWebApp app, String java) {
    return start(java, container, app, List.of(), "=config=" + app.config(), List.of(), Map.of());
  }

  /**
   * Starts {@code container} with the agent reading the app's config, {@code before} and {@code
   * after} its flag on the command line: another agent's -javaagent in either place runs first or
   * second.
   */
  public static AgentServer start(
      AgentContainer container, AgentWebApp app, List<String> before, List<String> after) {
    return start(
        ChildJvm.java(), container, app, before, "=config=" + app.config(), after, Map.of());
  }

  /**
   * Starts {@code container} with {@code agentSuffix} after the agent jar (e.g. {@code
   * =config=/x.yaml}, or empty), {@code options} before the main class and {@code environment}.
   */
  public static AgentServer start(
      AgentContainer container,
      AgentWebApp app,
      String agentSuffix,
      List<String> options,
      Map<String, String> environment) {
    return start(ChildJvm.java(), container, app, List.of(), agentSuffix, options, environment);
  }

  /**
   * Launches {@code container} with {@code agentSuffix} after the agent jar, without waiting for it
   * to serve: for a JVM that is expected not to.
   */
  public static ChildJvm launch(AgentContainer container, AgentWebApp app, String agentSuffix) {
    return launch(
        ChildJvm.java(), container, app, withAgent(List.of(), agentSuffix, List.of()), Map.of());
  }

  private static AgentServer start(
      String java,
      AgentContainer container,
      AgentWebApp app,
      List<String> before,
      String agentSuffix,
      List<String> options,
      Map<String, String> environment) {
    return serving(
        launch(java, container, app, withAgent(before, agentSuffix, options), environment));
  }

  /**
   * Starts {@code container} serving the app with {@code jvmOptions} alone before the main class,
   * the agent among them or not (a tool compares the two).
   */
  public static AgentServer startWithOptions(
      AgentContainer container, AgentWebApp app, List<String> jvmOptions) {
    return serving(launch(ChildJvm.java(), container, app, jvmOptions, Map.of()));
  }

  private static AgentServer serving(ChildJvm jvm) {
    try {
      String serving = jvm.awaitLine("SERVING ", START);
      return new AgentServer(jvm, Integer.parseInt(serving.substring("SERVING ".length())));
    } catch (InterruptedException | RuntimeException e) {
      jvm.close();
      throw e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
    } catch (AssertionError e) {
      jvm.close();
      throw e;
    }
  }

  /** {@code before}, our agent's flag with {@code agentSuffix}, {@code after}. */
  private static List<String> withAgent(
      List<String> before, String agentSuffix, List<String> after) {
    List<String> options = new ArrayList<>(before);
    options.add("-javaagent:" + Settings.agentJar() + agentSuffix);
    options.addAll(after);
    return options;
  }

  private static ChildJvm launch(
      String java,
      AgentContainer container,
      AgentWebApp app,
      List<String> jvmOptions,
      Map<String, String> environment) {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(container.classPath());
    command.add(container.main().getName());
    command.add(app.dir().toString());
    return ChildJvm.start(container.name(), command, environment, null);
  }

  /** The port it serves on. */
  public int port() {
    return port;
  }

  public Http http() {
    return http;
  }

  public ChildJvm jvm() {
    return jvm;
  }

  @Override
  public void close() throws InterruptedException {
    jvm.stop();
  }
}
