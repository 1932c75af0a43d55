package dev.sluice.it.agent.dist;

import static java.util.Map.entry;

import dev.sluice.it.WebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A copy of an unmodified Tomcat distribution (as Maven unpacked it under target/distributions),
 * made so its conf/ can be edited: the HTTP connector moves to a free port on 127.0.0.1 and the
 * shutdown port is disabled, and nothing else changes. Started with its own {@code bin/catalina.sh
 * run}, as an operator would, so the agent meets Tomcat's real class loaders, logging and scripts.
 */
final class TomcatDistribution {
  private static final String SHUTDOWN_PORT = "<Server port=\"8005\" shutdown=\"SHUTDOWN\">";
  private static final String HTTP_CONNECTOR = "<Connector port=\"8080\" protocol=\"HTTP/1.1\"";

  private final Path home;
  private final int port;

  private TomcatDistribution(Path home, int port) {
    this.home = home;
    this.port = port;
  }

  /**
   * Copies the distribution that the system property names into a temporary directory and
   * configures the copy. A distribution that is not there fails the test: it is a build problem.
   */
  static TomcatDistribution copy(String property) throws IOException {
    Path original = Path.of(Settings.required(property));
    if (!Files.isRegularFile(original.resolve("bin/catalina.sh"))) {
      throw new IllegalStateException(
          String.format(
              "%s names %s, which holds no Tomcat distribution (run mvn verify on it-tests: its"
                  + " tomcat-distributions execution unpacks it)",
              property, original));
    }
    Path home = Files.createTempDirectory("sluice-tomcat-dist").resolve(original.getFileName());
    WebApp.copyTree(original, home);
    TomcatDistribution tomcat = new TomcatDistribution(home, freePort());
    tomcat.configure();
    return tomcat;
  }

  private void configure() throws IOException {
    Path serverXml = home.resolve("conf/server.xml");
    String xml = Files.readString(serverXml);
    xml = replaceOnce(xml, SHUTDOWN_PORT, "<Server port=\"-1\" shutdown=\"SHUTDOWN\">");
    xml =
        replaceOnce(
            xml,
            HTTP_CONNECTOR,
            "<Connector port=\"" + port + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\"");
    Files.writeString(serverXml, xml);
  }

  /** Fails when server.xml no longer looks as expected, rather than running Tomcat on 8080. */
  private static String replaceOnce(String xml, String target, String replacement) {
    int at = xml.indexOf(target);
    if (at < 0 || xml.indexOf(target, at + 1) >= 0) {
      throw new IllegalStateException("server.xml holds " + target + " not exactly once");
    }
    return xml.replace(target, replacement);
  }

  /**
   * Runs {@code bin/catalina.sh run} with {@code catalinaOpts} (e.g. the -javaagent flag). In run
   * mode the script execs java, so the process returned is Tomcat's JVM itself. The environment
   * pins the JVM to this one's and clears the options a developer's shell may carry.
   */
  ChildJvm start(String name, String catalinaOpts) {
    String javaHome = System.getProperty("java.home");
    Map<String, String> environment =
        Map.ofEntries(
            entry("JAVA_HOME", javaHome),
            entry("JRE_HOME", javaHome),
            entry("CATALINA_HOME", home.toString()),
            entry("CATALINA_BASE", home.toString()),
            entry("CATALINA_OPTS", catalinaOpts),
            entry("JAVA_OPTS", ""),
            entry("JDK_JAVA_OPTIONS", ""));
    List<String> command = List.of("/bin/sh", home.resolve("bin/catalina.sh").toString(), "run");
    return ChildJvm.start(name, command, environment, home);
  }

  int port() {
    return port;
  }

  Path home() {
    return home;
  }

  void delete() throws IOException {
    WebApp.deleteTree(home.getParent());
  }

  static int freePort() throws IOException {
    // Closed before Tomcat binds it: another process could take it meanwhile, which would show
    // as a bind failure in Tomcat's log, never as a wrong result.
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
