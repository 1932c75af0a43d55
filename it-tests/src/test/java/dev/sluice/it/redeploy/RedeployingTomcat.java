package dev.sluice.it.redeploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Tomcat JVM of its own ({@link ServeRedeploys}) that deploys and undeploys web apps at {@code
 * /app} when told, for the life of a test class: its figures are its own, not the test JVM's.
 */
final class RedeployingTomcat implements AutoCloseable {
  private static final Duration START = Duration.ofSeconds(90);
  private static final Duration STEP = Duration.ofSeconds(60);

  /** What Tomcat's leak detection needs to look into the JDK's threads and ThreadLocals. */
  private static final List<String> OPENS =
      List.of(
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED");

  private final ChildJvm jvm;
  private final Http http;

  private RedeployingTomcat(ChildJvm jvm, int port) {
    this.jvm = jvm;
    this.http = new Http(port);
  }

  /** {@code container} (a Tomcat) with a small heap and a collector whose figures are exact. */
  static RedeployingTomcat start(AgentContainer container) throws InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(ChildJvm.java());
    command.addAll(OPENS);
    command.add("-XX:+UseSerialGC");
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(container.classPath());
    command.add(ServeRedeploys.class.getName());
    ChildJvm jvm = ChildJvm.start(container.name() + "-redeploys", command, Map.of(), null);
    try {
      String serving = jvm.awaitLine("SERVING ", START);
      return new RedeployingTomcat(jvm, Integer.parseInt(serving.substring("SERVING ".length())));
    } catch (RuntimeException | AssertionError | InterruptedException e) {
      jvm.close();
      throw e;
    }
  }

  Http http() {
    return http;
  }

  void deploy(AgentWebApp app) throws IOException, InterruptedException {
    command("deploy " + app.dir(), "DEPLOYED");
  }

  void undeploy() throws IOException, InterruptedException {
    command("undeploy", "UNDEPLOYED");
  }

  /** The JVM's figures once every undeployed app's class loader is collected, or could not be. */
  Figures measure() throws IOException, InterruptedException {
    String[] words = command("measure", "MEASURED").split(" ");
    return new Figures(
        Integer.parseInt(words[1]),
        Integer.parseInt(words[2]),
        Long.parseLong(words[3]),
        Integer.parseInt(words[4]));
  }

  /** Everything the JVM printed, Tomcat's log included. */
  String output() {
    return jvm.output();
  }

  private String command(String line, String answer) throws IOException, InterruptedException {
    jvm.send(line);
    String reply = jvm.awaitLine("DONE ", STEP).substring("DONE ".length());
    if (!reply.startsWith(answer)) {
      throw jvm.failure("answered " + reply + " to " + line);
    }
    return reply;
  }

  @Override
  public void close() throws Exception {
    try {
      jvm.closeInput();
      assertThat(jvm.awaitExit(Duration.ofSeconds(30))).as("Tomcat's exit code").isZero();
    } finally {
      jvm.close();
    }
  }

  /** A JVM's threads, open files, heap used and class loaders of undeployed apps not collected. */
  record Figures(int threads, int openFiles, long heapBytes, int loadersAlive) {}
}
