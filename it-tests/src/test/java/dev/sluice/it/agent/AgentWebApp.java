package dev.sluice.it.agent;

import dev.sluice.it.WebApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * A web app directory for one container JVM, as an unmodified application would be deployed: its
 * classes in {@code WEB-INF/lib} (the javax or jakarta build of the test app), a web.xml with no
 * trace of Sluice unless a test adds the Filter, and the ratelimit.yaml the agent reads in a
 * directory of its own beside it.
 */
public final class AgentWebApp {
  /** What a web.xml may hold besides the app's servlets. */
  public enum Part {
    /** The app's own filter on /*: MarkFilter. */
    APP_FILTER,
    /** Sluice's web.xml Filter on /*, all dispatcher types, first in the chain. */
    SLUICE_FILTER
  }

  private static final String WEB_XML =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee"
               xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
               xsi:schemaLocation="http://xmlns.jcp.org/xml/ns/javaee
                                   http://xmlns.jcp.org/xml/ns/javaee/web-app_4_0.xsd"
               version="4.0" metadata-complete="true">
      %s%s%s%s
        <servlet-mapping>
          <servlet-name>hello</servlet-name><url-pattern>/</url-pattern>
        </servlet-mapping>
        <error-page><error-code>500</error-code><location>/error-page</location></error-page>
      </web-app>
      """;

  private static final String SLUICE_FILTER =
      """
        <filter>
          <filter-name>sluice</filter-name>
          <filter-class>dev.sluice.servlet.RateLimitFilter</filter-class>
          <async-supported>true</async-supported>
          <init-param><param-name>config</param-name><param-value>%s</param-value></init-param>
        </filter>
        <filter-mapping>
          <filter-name>sluice</filter-name><url-pattern>/*</url-pattern>
          <dispatcher>REQUEST</dispatcher><dispatcher>FORWARD</dispatcher>
          <dispatcher>INCLUDE</dispatcher><dispatcher>ERROR</dispatcher>
          <dispatcher>ASYNC</dispatcher>
        </filter-mapping>
      """;

  private static final String APP_FILTER =
      """
        <filter>
          <filter-name>mark</filter-name>
          <filter-class>dev.sluice.it.app.MarkFilter</filter-class>
          <async-supported>true</async-supported>
        </filter>
        <filter-mapping><filter-name>mark</filter-name><url-pattern>/*</url-pattern></filter-mapping>
      """;

  private final Path root;
  private final Path dir;
  private final Path config;

  private AgentWebApp(Path root) {
    this.root = root;
    this.dir = root.resolve("webapp");
    this.config = root.resolve("config").resolve("ratelimit.yaml");
  }

  public static AgentWebApp create(AgentContainer container, String yaml, Part... parts)
      throws IOException {
    return create(container, yaml, "", parts);
  }

  /** As above, with {@code moreWebXml} (servlets of this test only) added to the web.xml. */
  public static AgentWebApp create(
      AgentContainer container, String yaml, String moreWebXml, Part... parts) throws IOException {
    return create(container.javax(), yaml, moreWebXml, parts);
  }

  /** As above, for a javax.servlet ({@code javax}) or jakarta.servlet server of any kind. */
  public static AgentWebApp create(boolean javax, String yaml, String moreWebXml, Part... parts)
      throws IOException {
    Set<Part> with = parts.length == 0 ? EnumSet.noneOf(Part.class) : EnumSet.of(parts[0], parts);
    AgentWebApp app = new AgentWebApp(Files.createTempDirectory("sluice-agent-it"));
    Files.createDirectories(app.config.getParent());
    Files.writeString(app.config, yaml);
    Path lib = Files.createDirectories(app.dir.resolve("WEB-INF/lib"));
    String appJar = javax ? "sluice.it.javaxAppJar" : "sluice.it.jakartaAppJar";
    Files.copy(Settings.builtFile(appJar), lib.resolve("app.jar"));
    if (with.contains(Part.SLUICE_FILTER)) {
      app.addFilterJars(javax, lib);
    }
    String webXml =
        String.format(
            WEB_XML,
            with.contains(Part.SLUICE_FILTER) ? String.format(SLUICE_FILTER, app.config) : "",
            with.contains(Part.APP_FILTER) ? APP_FILTER : "",
            WebApp.servletsXml(),
            moreWebXml);
    Files.writeString(app.dir.resolve("WEB-INF/web.xml"), webXml);
    return app;
  }

  /**
   * The jars as published, as an application with the Redis store bundles them: the Filter, the
   * engine and the Redis store, each with its own libraries inside, relocated.
   */
  private void addFilterJars(boolean javax, Path lib) throws IOException {
    String jar = javax ? "sluice.it.javaxFilterJar" : "sluice.it.filterJar";
    Files.copy(Settings.builtFile(jar), lib.resolve("sluice-filter.jar"));
    Files.copy(Settings.builtFile("sluice.it.coreJar"), lib.resolve("sluice-core.jar"));
    Files.copy(Settings.builtFile("sluice.it.redisJar"), lib.resolve("sluice-redis.jar"));
  }

  public Path dir() {
    return dir;
  }

  /** Bundles {@code jar} in WEB-INF/lib, as an app ships its own libraries. */
  public void addLibrary(Path jar) throws IOException {
    Files.copy(jar, dir.resolve("WEB-INF/lib").resolve(jar.getFileName()));
  }

  public Path config() {
    return config;
  }

  /** Replaces the config as editors and ConfigMaps do: a new file moved over the old one. */
  public void replaceConfig(String yaml) throws IOException {
    Path temp = config.resolveSibling("ratelimit.yaml.tmp");
    Files.writeString(temp, yaml);
    Files.move(temp, config, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  public void delete() throws IOException {
    WebApp.deleteTree(root);
  }
}
