package dev.sluice.it.agent.dist;

import static java.util.Map.entry;

import dev.sluice.it.WebApp;
import dev.sluice.it.agent.Settings;
import dev.sluice.it.jvm.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * An unmodified Payara Server distribution (as Maven unpacked it under target/distributions), its
 * domain run by {@code bin/asadmin start-domain --verbose} as an operator would, from a copy of the
 * shipped {@code domain1} in a temporary directory ({@code --domaindir}), where the test deploys and
 * Payara writes its log, so the distribution itself stays as shipped. The copy's domain.xml differs
 * from the shipped one in its fixed ports, moved together by an offset whose ports are free and
 * bound to 127.0.0.1, and in one {@code jvm-options} element: the agent flag, as {@code asadmin
 * create-jvm-options} would add it.
 */
final class PayaraDistribution {
  static final String DOMAIN = "domain1";

  /**
   * The server's fixed ports in domain1's domain.xml: HTTP, HTTPS, admin, JMX, IIOP (three), the
   * Hazelcast DAS and member ports, JMS and the OSGi shell.
   */
  private static final List<Integer> PORTS =
      List.of(8080, 8181, 4848, 8686, 3700, 3820, 3920, 4900, 5900, 7676, 6666);

  private final Path home;
  private final Path domains;
  private final int offset;

  private PayaraDistribution(Path home, Path domains, int offset) {
    this.home = home;
    this.domains = domains;
    this.offset = offset;
  }

  /** A copy of domain1 of the distribution the system property names. */
  static PayaraDistribution of(String property) throws IOException {
    Path home = Path.of(Settings.required(property));
    Path shipped = home.resolve("glassfish/domains").resolve(DOMAIN);
    if (!Files.isRegularFile(home.resolve("bin/asadmin"))
        || !Files.isRegularFile(shipped.resolve("config/domain.xml"))) {
      throw new IllegalStateException(
          String.format(
              "%s names %s, which holds no Payara Server distribution (run mvn verify on"
                  + " it-tests: its distributions execution unpacks it)",
              property, home));
    }
    Path domains = Files.createTempDirectory("sluice-payara").resolve("domains");
    WebApp.copyTree(shipped, domains.resolve(DOMAIN));
    return new PayaraDistribution(home, domains, PortOffset.free(PORTS));
  }

  /** Deploys the web app directory {@code app} as {@code autodeploy/<name>.war}. */
  void deploy(String name, Path app) throws IOException {
    Path autodeploy = Files.createDirectories(domain().resolve("autodeploy"));
    WarFile.zip(app, autodeploy.resolve(name + ".war"));
  }

  /**
   * Adds {@code jvmOptions} to the server's JVM options in domain.xml, moves its ports, and runs
   * {@code asadmin start-domain --verbose}: asadmin starts the server's JVM as its child, relays its
   * output and exits when it stops.
   */
  ChildJvm start(String name, List<String> jvmOptions) throws IOException {
    Path xml = domain().resolve("config/domain.xml");
    Files.writeString(xml, edited(Files.readString(xml), jvmOptions));
    return asadmin(name, "start-domain", "--verbose");
  }

  /**
   * Stops the domain as an operator does, {@code asadmin stop-domain}, and waits for the server and
   * {@code script} (the start-domain that ran it) to exit by themselves.
   */
  void stop(ChildJvm script, Duration timeout) throws InterruptedException, IOException {
    List<ProcessHandle> server =
        ProcessHandle.of(script.pid()).map(p -> p.descendants().toList()).orElse(List.of());
    try (ChildJvm stop = asadmin("asadmin-stop-domain", "stop-domain")) {
      stop.awaitSuccess(timeout);
    }
    script.awaitExit(timeout);
    for (ProcessHandle left : server) {
      if (left.isAlive()) {
        left.destroyForcibly();
        throw new AssertionError("Payara outlived asadmin; its output:\n" + script.output());
      }
    }
  }

  /** Payara's HTTP port. */
  int port() {
    return 8080 + offset;
  }

  /** What Payara wrote to the domain's logs/server.log so far. */
  String serverLog() throws IOException {
    return Files.readString(domain().resolve("logs/server.log"));
  }

  void delete() throws IOException {
    WebApp.deleteTree(domains.getParent());
  }

  /**
   * domain.xml with the server's configuration ({@code server-config}, the first; the rest is the
   * template for new instances) changed: its ports moved by {@link #offset}, its listeners bound to
   * 127.0.0.1, and {@code jvmOptions} added to its JVM options, one element each.
   */
  private String edited(String xml, List<String> jvmOptions) {
    int template = xml.indexOf("<config name=\"default-config\"");
    String server = xml.substring(0, template);
    for (int port : PORTS) {
      server =
          server
              .replace("port=\"" + port + "\"", "port=\"" + (port + offset) + "\"")
              .replace("value=\"" + port + "\"", "value=\"" + (port + offset) + "\"")
              .replace("telnet.port=" + port + "<", "telnet.port=" + (port + offset) + "<");
    }
    server =
        server
            .replace("address=\"0.0.0.0\"", "address=\"127.0.0.1\"")
            .replace("<network-listener port=", "<network-listener address=\"127.0.0.1\" port=")
            .replaceFirst("</java-config>", jvmOptionElements(jvmOptions) + "</java-config>");
    return server + xml.substring(template);
  }

  private static String jvmOptionElements(List<String> jvmOptions) {
    StringBuilder elements = new StringBuilder();
    for (String option : jvmOptions) {
      elements.append("<jvm-options>").append(option).append("</jvm-options>");
    }
    return Matcher.quoteReplacement(elements.toString());
  }

  private ChildJvm asadmin(String name, String... command) {
    String javaHome = System.getProperty("java.home");
    Map<String, String> environment =
        Map.ofEntries(
            entry("JAVA_HOME", javaHome),
            entry("AS_JAVA", javaHome),
            entry("JDK_JAVA_OPTIONS", ""),
            entry("JAVA_TOOL_OPTIONS", ""));
    List<String> line =
        new java.util.ArrayList<>(List.of("/bin/sh", home.resolve("bin/asadmin").toString()));
    line.addAll(List.of(command));
    line.addAll(List.of("--domaindir", domains.toString(), DOMAIN));
    return ChildJvm.start(name, line, environment, domains.getParent());
  }

  private Path domain() {
    return domains.resolve(DOMAIN);
  }
}
