package dev.sluice.it.agent.dist;

import dev.sluice.it.WebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An unmodified Jetty distribution before 12 (jetty-distribution 9.4, jetty-home 10 and 11, as
 * Maven unpacked it under target/distributions) used as Jetty documents it: {@code jetty.home}
 * stays as shipped, and a {@code jetty.base} of the test's own, in a temporary directory, enables
 * the {@code http} and {@code deploy} modules through {@code start.jar} itself and holds the web
 * apps. Started with {@code java -jar start.jar} in that base, bound to a free port of 127.0.0.1.
 */
final class JettyDistribution {
  private static final Duration SETUP = Duration.ofSeconds(60);

  private final Path home;
  private final Path base;
  private final int port;

  private JettyDistribution(Path home, Path base, int port) {
    this.home = home;
    this.base = base;
    this.port = port;
  }

  /**
   * A base for the distribution the system property names, with {@code addModules} (9.4: {@code
   * --add-to-start=http,deploy}; 10 and 11: {@code --add-module=http,deploy}) run in it. A
   * distribution that is not there fails the test: it is a build problem.
   */
  static JettyDistribution of(String property, String addModules)
      throws IOException, InterruptedException {
    Path home = Path.of(Settings.required(property));
    if (!Files.isRegularFile(home.resolve("start.jar"))) {
      throw new IllegalStateException(
          String.format(
              "%s names %s, which holds no Jetty distribution (run mvn verify on it-tests: its"
                  + " tomcat-distributions execution unpacks it)",
              property, home));
    }
    Path base = Files.createDirectories(Files.createTempDirectory("sluice-jetty").resolve("base"));
    JettyDistribution jetty = new JettyDistribution(home, base, TomcatDistribution.freePort());
    try (ChildJvm setup = jetty.startJar("jetty-setup", List.of(), addModules)) {
      int exit = setup.awaitExit(SETUP);
      if (exit != 0 || !Files.isDirectory(base.resolve("webapps"))) {
        throw setup.failure("start.jar " + addModules + " exited with " + exit);
      }
    }
    return jetty;
  }

  /** Deploys the web app directory {@code app} as {@code webapps/<name>}: the context /name. */
  void deploy(String name, Path app) throws IOException {
    WebApp.copyTree(app, base.resolve("webapps").resolve(name));
  }

  /** Runs Jetty with {@code jvmOptions} (e.g. the -javaagent flag) before {@code -jar}. */
  ChildJvm start(String name, List<String> jvmOptions) {
    return startJar(name, jvmOptions, "jetty.http.host=127.0.0.1", "jetty.http.port=" + port);
  }

  private ChildJvm startJar(String name, List<String> jvmOptions, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(ChildJvm.java());
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(home.resolve("start.jar").toString());
    command.add("jetty.home=" + home);
    command.add("jetty.base=" + base);
    command.addAll(List.of(arguments));
    // Options a developer's shell may carry would reach this JVM too.
    return ChildJvm.start(name, command, Map.of("JDK_JAVA_OPTIONS", ""), base);
  }

  int port() {
    return port;
  }

  void delete() throws IOException {
    WebApp.deleteTree(base.getParent());
  }
}
