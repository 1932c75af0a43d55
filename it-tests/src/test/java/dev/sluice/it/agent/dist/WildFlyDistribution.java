package dev.sluice.it.agent.dist;

import static java.util.Map.entry;

import dev.sluice.it.WebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An unmodified WildFly distribution (as Maven unpacked it under target/distributions), run by its
 * own {@code bin/standalone.sh} as an operator would, with a server directory of its own: a copy of
 * {@code standalone/} in a temporary directory ({@code JBOSS_BASE_DIR}), where the test deploys and
 * WildFly writes its log, so the distribution itself stays as shipped. Every socket moves to
 * 127.0.0.1 by a port offset whose ports are free.
 */
final class WildFlyDistribution {
  /** The default configuration's listening ports: HTTP, HTTPS, management HTTP and HTTPS. */
  private static final List<Integer> PORTS = List.of(8080, 8443, 9990, 9993);

  private final Path home;
  private final Path base;
  private final int offset;

  private WildFlyDistribution(Path home, Path base, int offset) {
    this.home = home;
    this.base = base;
    this.offset = offset;
  }

  /** A server directory for the distribution the system property names. */
  static WildFlyDistribution of(String property) throws IOException {
    Path home = Path.of(Settings.required(property));
    if (!Files.isRegularFile(home.resolve("bin/standalone.sh"))
        || !Files.isRegularFile(home.resolve("jboss-modules.jar"))) {
      throw new IllegalStateException(
          String.format(
              "%s names %s, which holds no WildFly distribution (run mvn verify on it-tests: its"
                  + " distributions execution unpacks it)",
              property, home));
    }
    Path base = Files.createTempDirectory("sluice-wildfly").resolve("standalone");
    WebApp.copyTree(home.resolve("standalone"), base);
    return new WildFlyDistribution(home, base, PortOffset.free(PORTS));
  }

  /** Deploys the web app directory {@code app} as {@code <name>.war}, found when WildFly boots. */
  void deploy(String name, Path app) throws IOException {
    WarFile.zip(app, base.resolve("deployments").resolve(name + ".war"));
  }

  /**
   * Runs {@code bin/standalone.sh}, bound to 127.0.0.1, with {@code javaOpts} the whole of {@code
   * JAVA_OPTS} (which replaces standalone.conf's defaults, as the script says), or, when {@code
   * inStandaloneConf}, added by a line at the end of a copy of {@code bin/standalone.conf}, after
   * its defaults. The script runs WildFly in the background and passes SIGTERM on to it.
   */
  ChildJvm start(String name, String javaOpts, boolean inStandaloneConf) throws IOException {
    String javaHome = System.getProperty("java.home");
    Map<String, String> environment =
        new HashMap<>(
            Map.ofEntries(
                entry("JAVA_HOME", javaHome),
                entry("JAVA", Path.of(javaHome, "bin", "java").toString()),
                entry("JBOSS_HOME", home.toString()),
                entry("JBOSS_BASE_DIR", base.toString()),
                entry("LAUNCH_JBOSS_IN_BACKGROUND", "true"),
                entry("JAVA_OPTS", inStandaloneConf ? "" : javaOpts),
                entry("JDK_JAVA_OPTIONS", ""),
                entry("JAVA_TOOL_OPTIONS", "")));
    if (inStandaloneConf) {
      Path conf = base.getParent().resolve("standalone.conf");
      Files.writeString(
          conf,
          Files.readString(home.resolve("bin/standalone.conf"))
              + "\nJAVA_OPTS=\"$JAVA_OPTS "
              + javaOpts
              + "\"\n");
      environment.put("RUN_CONF", conf.toString());
    }
    List<String> command =
        List.of(
            "/bin/sh",
            home.resolve("bin/standalone.sh").toString(),
            "-b",
            "127.0.0.1",
            "-bmanagement",
            "127.0.0.1",
            "-Djboss.socket.binding.port-offset=" + offset);
    return ChildJvm.start(name, command, environment, base.getParent());
  }

  /** WildFly's HTTP port. */
  int port() {
    return 8080 + offset;
  }

  /** What WildFly wrote to standalone/log/server.log so far. */
  String serverLog() throws IOException {
    return Files.readString(base.resolve("log/server.log"));
  }

  void delete() throws IOException {
    WebApp.deleteTree(base.getParent());
  }
}
