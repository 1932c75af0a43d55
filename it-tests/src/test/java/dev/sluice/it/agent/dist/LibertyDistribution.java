package dev.sluice.it.agent.dist;

import static java.util.Map.entry;

import dev.sluice.it.WebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An unmodified Open Liberty distribution (as Maven unpacked it under target/distributions), run by
 * its own {@code bin/server run} as an operator would, with a user directory of its own ({@code
 * WLP_USER_DIR}, in a temporary directory) holding one server: its server.xml enables {@code
 * servlet-4.0} alone and listens on a free port of 127.0.0.1, its {@code jvm.options} holds the
 * agent flag and nothing else, and its {@code dropins} the test app. The distribution itself stays
 * as shipped.
 */
final class LibertyDistribution {
  static final String SERVER = "sluice";

  private static final String SERVER_XML =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <server description="Sluice agent test">
          <featureManager>
              <feature>servlet-4.0</feature>
          </featureManager>
          <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="%d" httpsPort="-1"/>
      </server>
      """;

  private final Path home;
  private final Path user;
  private final int port;

  private LibertyDistribution(Path home, Path user, int port) {
    this.home = home;
    this.user = user;
    this.port = port;
  }

  /** A user directory with one server for the distribution the system property names. */
  static LibertyDistribution of(String property) throws IOException {
    Path home = Path.of(Settings.required(property));
    if (!Files.isRegularFile(home.resolve("bin/server"))
        || !Files.isRegularFile(home.resolve("bin/tools/ws-server.jar"))) {
      throw new IllegalStateException(
          String.format(
              "%s names %s, which holds no Open Liberty distribution (run mvn verify on it-tests:"
                  + " its distributions execution unpacks it)",
              property, home));
    }
    Path user = Files.createTempDirectory("sluice-liberty").resolve("usr");
    int port = TomcatDistribution.freePort();
    Path server = Files.createDirectories(user.resolve("servers").resolve(SERVER));
    Files.createDirectories(server.resolve("dropins"));
    Files.writeString(server.resolve("server.xml"), String.format(SERVER_XML, port));
    return new LibertyDistribution(home, user, port);
  }

  /** Deploys the web app directory {@code app} as {@code dropins/<name>.war}. */
  void deploy(String name, Path app) throws IOException {
    WarFile.zip(app, server().resolve("dropins").resolve(name + ".war"));
  }

  /**
   * Runs {@code bin/server run} with {@code jvmOptions} the lines of the server's {@code
   * jvm.options}, one each. The script execs the JVM: stopping this process stops Liberty.
   */
  ChildJvm start(String name, List<String> jvmOptions) throws IOException {
    Files.write(server().resolve("jvm.options"), jvmOptions);
    Map<String, String> environment =
        Map.ofEntries(
            entry("JAVA_HOME", System.getProperty("java.home")),
            entry("WLP_USER_DIR", user.toString()),
            entry("JVM_ARGS", ""),
            entry("JDK_JAVA_OPTIONS", ""),
            entry("JAVA_TOOL_OPTIONS", ""));
    List<String> command = List.of("/bin/sh", home.resolve("bin/server").toString(), "run", SERVER);
    return ChildJvm.start(name, command, environment, user.getParent());
  }

  int port() {
    return port;
  }

  /** What Liberty wrote to its messages.log so far: every level, where the console has AUDIT up. */
  String messagesLog() throws IOException {
    return Files.readString(server().resolve("logs/messages.log"));
  }

  void delete() throws IOException {
    WebApp.deleteTree(user.getParent());
  }

  private Path server() {
    return user.resolve("servers").resolve(SERVER);
  }
}
