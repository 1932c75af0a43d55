package dev.sluice.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The libraries a web app bundles in WEB-INF/lib in other versions than Sluice's own (Jedis 5,
 * SnakeYAML 1.33, SLF4J 1.7 with slf4j-simple; Maven copies them, see bundled-libs in the pom), and
 * the app's {@code LibrariesServlet} that reports what it sees of them.
 */
public final class BundledLibraries {
  /** web.xml elements mapping the LibrariesServlet on /libraries. */
  public static final String SERVLET =
      """
        <servlet><servlet-name>libraries</servlet-name>
          <servlet-class>dev.sluice.it.app.LibrariesServlet</servlet-class></servlet>
        <servlet-mapping><servlet-name>libraries</servlet-name>
          <url-pattern>/libraries</url-pattern></servlet-mapping>
      """;

  private BundledLibraries() {}

  /** Copies every bundled jar into the app's WEB-INF/lib; returns each artifact's version. */
  public static Map<String, String> bundle(AgentWebApp app) throws IOException {
    Path bundled = Path.of(Settings.required("sluice.it.bundledLibs"));
    Map<String, String> versions = new LinkedHashMap<>();
    List<Path> jars;
    try (Stream<Path> files = Files.list(bundled)) {
      jars = files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
    for (Path jar : jars) {
      String name = jar.getFileName().toString().replaceFirst("\\.jar$", "");
      int dash = name.lastIndexOf('-');
      versions.put(name.substring(0, dash), name.substring(dash + 1));
      app.addLibrary(jar);
    }
    assertThat(versions)
        .as("jars in %s (copied by mvn package)", bundled)
        .containsKeys("jedis", "commons-pool2", "snakeyaml", "slf4j-api", "slf4j-simple");
    return versions;
  }

  /** The servlet's {@code key=value} lines. */
  public static Map<String, String> parse(String body) {
    Map<String, String> entries = new LinkedHashMap<>();
    for (String line : body.lines().toList()) {
      int equals = line.indexOf('=');
      if (equals > 0) {
        entries.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    return entries;
  }
}
