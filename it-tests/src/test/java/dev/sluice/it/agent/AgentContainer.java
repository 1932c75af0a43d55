package dev.sluice.it.agent;

import dev.sluice.it.jvm.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * A servlet container the agent is tested in, each run in a JVM of its own: its class path holds
 * the container and the {@code Serve*} main class only, never the app or Sluice, as on a server.
 * Tomcat 11 and Jetty 12 come from the test class path; Tomcat 9 and 10.1 (and the Servlet API
 * Jetty ee10 needs) from jars Maven copied under {@code target/containers}.
 */
public enum AgentContainer {
  TOMCAT_9(true, ServeTomcat.class, "tomcat9"),
  TOMCAT_10_1(false, ServeTomcat.class, "tomcat10"),
  TOMCAT_11(false, ServeTomcat.class, null, "/org/apache/tomcat/"),
  JETTY_12_EE8(true, ServeJetty12Ee8.class, null, "/org/eclipse/jetty/", "/org/slf4j/"),
  JETTY_12_EE10(
      false, ServeJetty12Ee10.class, "jakarta-servlet-api", "/org/eclipse/jetty/", "/org/slf4j/");

  private final boolean javax;
  private final Class<?> main;
  private final String jarsDirectory;
  private final List<String> classPathMarkers;

  AgentContainer(boolean javax, Class<?> main, String jarsDirectory, String... classPathMarkers) {
    this.javax = javax;
    this.main = main;
    this.jarsDirectory = jarsDirectory;
    this.classPathMarkers = Arrays.asList(classPathMarkers);
  }

  /** True for a javax.servlet container, false for jakarta.servlet. */
  public boolean javax() {
    return javax;
  }

  public Class<?> main() {
    return main;
  }

  /** The container JVM's class path: the container's jars and this module's test classes. */
  public String classPath() {
    List<String> entries = new ArrayList<>();
    entries.add(testClasses().toString());
    if (jarsDirectory != null) {
      addJars(entries);
    }
    for (String entry : ChildJvm.classPath(main).split(File.pathSeparator)) {
      String unix = entry.replace(File.separatorChar, '/');
      if (classPathMarkers.stream().anyMatch(unix::contains)) {
        entries.add(entry);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private void addJars(List<String> entries) {
    Path dir = Path.of(Settings.required("sluice.it.containers")).resolve(jarsDirectory);
    try (Stream<Path> jars = Files.list(dir)) {
      jars.filter(p -> p.toString().endsWith(".jar")).forEach(p -> entries.add(p.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException("no container jars in " + dir + " (run mvn verify)", e);
    }
  }

  private Path testClasses() {
    try {
      return Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
