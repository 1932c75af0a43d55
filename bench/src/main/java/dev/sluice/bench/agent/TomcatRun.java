package dev.sluice.bench.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A Tomcat distribution, copied whole and started with {@code bin/catalina.sh run} (which execs the
 * JVM) and the options in CATALINA_OPTS; the first request goes to the bundled examples app's
 * HelloWorldExample, then a JSP.
 */
final class TomcatRun extends ServerRun {
  private static final String HELLO = "/examples/servlets/servlet/HelloWorldExample";
  private static final String JSP = "/examples/jsp/jsp2/el/basic-arithmetic.jsp";
  private static final Pattern STARTUP = Pattern.compile("Server startup in \\[?([0-9,.]+)\\]? m");

  private final Path distribution;
  private int port;

  TomcatRun(Path distribution) {
    this.distribution = distribution;
  }

  @Override
  String hello() {
    return HELLO;
  }

  @Override
  String jsp() {
    return JSP;
  }

  @Override
  Pattern serverStarted() {
    return STARTUP;
  }

  @Override
  int port() {
    return port;
  }

  @Override
  long jvmPid(Process started) {
    return started.pid();
  }

  @Override
  ProcessBuilder prepare(Path root, String jvmOptions) throws IOException {
    Path home = root.resolve("tomcat");
    copyTree(distribution, home);
    port = freePort();
    Path serverXml = home.resolve("conf/server.xml");
    Files.writeString(
        serverXml,
        Files.readString(serverXml)
            .replace("<Server port=\"8005\"", "<Server port=\"-1\"")
            .replace(
                "<Connector port=\"8080\" protocol=\"HTTP/1.1\"",
                "<Connector port=\"" + port + "\" address=\"127.0.0.1\" protocol=\"HTTP/1.1\""));
    ProcessBuilder builder =
        new ProcessBuilder("/bin/sh", home.resolve("bin/catalina.sh").toString(), "run")
            .directory(home.toFile());
    builder.environment().put("JRE_HOME", System.getProperty("java.home"));
    builder.environment().put("CATALINA_HOME", home.toString());
    builder.environment().put("CATALINA_BASE", home.toString());
    builder.environment().put("CATALINA_OPTS", jvmOptions);
    builder.environment().put("JAVA_OPTS", "");
    return builder;
  }
}
