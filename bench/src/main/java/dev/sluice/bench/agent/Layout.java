package dev.sluice.bench.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the build put what the server JVMs need, found from the repository root: the agent jar,
 * the example app's classes and web app directory, and the class-path jars that {@code
 * bench/pom.xml} copies next to the benchmarks jar (Tomcat; the Filter and its libraries).
 */
record Layout(
    Path root, Path agentJar, Path appClasses, Path webapp, List<Path> tomcat, List<Path> filter) {
  static final String BUILD =
      "mvn -B -q -pl bench,examples/tomcat-app,agent -am package -DskipTests";

  /** The layout under {@code root}; fails naming the build command when a part is missing. */
  static Layout of(Path root) {
    Path agentJar = root.resolve("agent/target/sluice-agent.jar");
    Path appClasses = root.resolve("examples/tomcat-app/target/classes");
    Path webapp = root.resolve("examples/tomcat-app/src/main/webapp");
    Path lib = root.resolve("bench/target/agent-load");
    for (Path p :
        List.of(
            agentJar,
            appClasses.resolve("dev/sluice/example/Standalone.class"),
            webapp.resolve("WEB-INF/web.xml"),
            lib.resolve("tomcat"),
            lib.resolve("filter"))) {
      if (!Files.exists(p)) {
        throw new IllegalStateException(
            p + " is missing: build first, from " + root + ": " + BUILD);
      }
    }
    List<Path> tomcat = jars(lib.resolve("tomcat"));
    List<Path> filter = jars(lib.resolve("filter"));
    if (filter.stream().noneMatch(j -> j.getFileName().toString().startsWith("sluice-filter"))) {
      throw new IllegalStateException("no sluice-filter jar in " + lib.resolve("filter") + ": " + BUILD);
    }
    return new Layout(root, agentJar, appClasses, webapp, tomcat, filter);
  }

  /**
   * The repository root: three levels above the benchmarks jar this class was loaded from
   * (bench/target/benchmarks.jar), else the working directory.
   */
  static Path defaultRoot() {
    try {
      Path jar = Path.of(Layout.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path root = jar.getParent() == null ? null : jar.getParent().getParent();
      root = root == null ? null : root.getParent();
      if (root != null && Files.isDirectory(root.resolve("examples/tomcat-app"))) {
        return root;
      }
    } catch (URISyntaxException | RuntimeException e) {
      // fall through to the working directory
    }
    return Path.of("").toAbsolutePath();
  }

  /** The server's class path: the app and Tomcat, plus the Filter's jars when it is wanted. */
  String classPath(boolean withFilter) {
    List<String> entries = new ArrayList<>();
    entries.add(appClasses.toString());
    tomcat.forEach(j -> entries.add(j.toString()));
    if (withFilter) {
      filter.forEach(j -> entries.add(j.toString()));
    }
    return String.join(java.io.File.pathSeparator, entries);
  }

  private static List<Path> jars(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
