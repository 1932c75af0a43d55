package dev.sluice.bench.agent;

import dev.sluice.it.agent.dist.SupportedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the it-tests build leaves under it-tests/ (the unpacked distributions, the test app's javax
 * and jakarta jars, the Boot jars, the container jars), handed to its launchers as the system
 * properties failsafe sets for the tests (it-tests/pom.xml): a property already set (-D) wins.
 */
final class ItTestsBuild {
  /** The directory under it-tests/target/distributions each distribution unpacks to, by prefix. */
  private static final Map<String, String> DISTRIBUTIONS =
      Map.ofEntries(
          Map.entry("sluice.it.tomcat85Distribution", "apache-tomcat-8.5."),
          Map.entry("sluice.it.tomcat9Distribution", "apache-tomcat-9."),
          Map.entry("sluice.it.tomcat10Distribution", "apache-tomcat-10."),
          Map.entry("sluice.it.tomcat11Distribution", "apache-tomcat-11."),
          Map.entry("sluice.it.jetty94Distribution", "jetty-distribution-9.4."),
          Map.entry("sluice.it.jetty10Distribution", "jetty-home-10."),
          Map.entry("sluice.it.jetty11Distribution", "jetty-home-11."),
          Map.entry("sluice.it.wildfly26Distribution", "wildfly-servlet-26."),
          Map.entry("sluice.it.wildfly39Distribution", "wildfly-39."),
          Map.entry("sluice.it.libertyDistribution", "openliberty-"),
          Map.entry("sluice.it.payaraDistribution", "payara-"));

  /** Where inside its directory a distribution's home is, where not the directory itself. */
  private static final Map<String, String> HOMES =
      Map.of("sluice.it.libertyDistribution", "wlp", "sluice.it.payaraDistribution", "payara6");

  static final String BUILD =
      "./mvnw -q -Pstartup-cost -pl agent,bench -am package -DskipTests";

  private ItTestsBuild() {}

  /** Sets the properties from the build under the repository {@code root}. */
  static void use(Path root) {
    Path itTests = root.resolve("it-tests");
    Path target = itTests.resolve("target");
    for (Map.Entry<String, String> distribution : DISTRIBUTIONS.entrySet()) {
      Path dir = only(target.resolve("distributions"), distribution.getValue(), "");
      String home = HOMES.get(distribution.getKey());
      set(distribution.getKey(), home == null ? dir : dir.resolve(home));
    }
    Path javaxApp = only(target, "sluice-it-tests-", "-javax.jar");
    set("sluice.it.javaxAppJar", javaxApp);
    set(
        "sluice.it.jakartaAppJar",
        javaxApp.resolveSibling(javaxApp.getFileName().toString().replace("-javax.jar", ".jar")));
    set("sluice.it.containers", target.resolve("containers"));
    set(
        "sluice.it.boot27Jar",
        itTests.resolve("apps/boot27-app/target/sluice-it-boot27-app.jar"));
    set(
        "sluice.it.boot3UndertowJar",
        itTests.resolve("apps/boot3-undertow-app/target/sluice-it-boot3-undertow-app.jar"));
  }

  /** The name of {@code server}'s distribution directory or jar, for the record. */
  static String file(SupportedServer server) {
    if (server.property() == null) {
      return "embedded, as it-tests' ServeJetty12Ee10";
    }
    Path path = Path.of(System.getProperty(server.property()));
    return (HOMES.containsKey(server.property()) ? path.getParent() : path)
        .getFileName()
        .toString();
  }

  private static void set(String property, Path path) {
    if (System.getProperty(property) == null) {
      if (!Files.exists(path)) {
        throw new IllegalStateException(path + " is missing: build first: " + BUILD);
      }
      System.setProperty(property, path.toString());
    }
  }

  /** The one entry of {@code dir} named {@code prefix...suffix}. */
  private static Path only(Path dir, String prefix, String suffix) {
    try (Stream<Path> entries = Files.list(dir)) {
      var found =
          entries
              .filter(p -> p.getFileName().toString().startsWith(prefix))
              .filter(p -> p.getFileName().toString().endsWith(suffix))
              .toList();
      if (found.size() != 1) {
        throw new IllegalStateException(
            "not one " + prefix + "*" + suffix + " in " + dir + " but " + found + ": " + BUILD);
      }
      return found.get(0);
    } catch (IOException e) {
      throw new UncheckedIOException(dir + " unreadable: build first: " + BUILD, e);
    }
  }
}
