package dev.sluice.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A web app directory made for one test class, and the ratelimit.yaml it reads. The config lives in
 * a directory of its own beside the app, so the filter's watcher sees only config changes.
 */
public final class WebApp {
  /**
   * Servlet 4.0 (javaee namespace): Tomcat 11, Jetty ee10 and Jetty ee8 all accept it. The filter
   * takes every dispatcher type, so the tests prove a forwarded, included, error or async
   * re-dispatched request is still counted once.
   */
  private static final String WEB_XML =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee"
               xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
               xsi:schemaLocation="http://xmlns.jcp.org/xml/ns/javaee
                                   http://xmlns.jcp.org/xml/ns/javaee/web-app_4_0.xsd"
               version="4.0" metadata-complete="true">
        <filter>
          <filter-name>sluice</filter-name>
          <filter-class>dev.sluice.servlet.RateLimitFilter</filter-class>
          <async-supported>true</async-supported>
          <init-param><param-name>config</param-name><param-value>%s</param-value></init-param>
        </filter>
        <filter-mapping>
          <filter-name>sluice</filter-name>
          <url-pattern>/*</url-pattern>
          <dispatcher>REQUEST</dispatcher>
          <dispatcher>FORWARD</dispatcher>
          <dispatcher>INCLUDE</dispatcher>
          <dispatcher>ERROR</dispatcher>
          <dispatcher>ASYNC</dispatcher>
        </filter-mapping>
        <!-- The app's own login, then Sluice again for the rules keyed by the user. -->
        <filter>
          <filter-name>login</filter-name>
          <filter-class>dev.sluice.it.app.LoginFilter</filter-class>
          <async-supported>true</async-supported>
        </filter>
        <filter-mapping><filter-name>login</filter-name><url-pattern>/*</url-pattern></filter-mapping>
        <filter>
          <filter-name>sluice-after-login</filter-name>
          <filter-class>dev.sluice.servlet.RateLimitFilter</filter-class>
          <async-supported>true</async-supported>
          <init-param><param-name>decide</param-name><param-value>after_login</param-value></init-param>
        </filter>
        <filter-mapping>
          <filter-name>sluice-after-login</filter-name><url-pattern>/*</url-pattern>
        </filter-mapping>
      %s
        <!-- The app's answer for every other path too, so a request the container routes anywhere
             reaches a servlet that counts it. -->
        <servlet-mapping>
          <servlet-name>hello</servlet-name><url-pattern>/</url-pattern>
        </servlet-mapping>
        <error-page><error-code>500</error-code><location>/error-page</location></error-page>
      </web-app>
      """;

  private static final String[][] SERVLETS = {
    {"hello", "HelloServlet", "/api/hello"},
    {"me", "MeServlet", "/api/me"},
    {"count", "CountServlet", "/count"},
    {"forward", "ForwardServlet", "/forward"},
    {"include", "IncludeServlet", "/include"},
    {"boom", "BoomServlet", "/boom"},
    {"error-page", "ErrorPageServlet", "/error-page"},
    {"async", "AsyncServlet", "/async"},
  };

  private final Path root;
  private final Path dir;
  private final Path config;

  private WebApp(Path root) {
    this.root = root;
    this.dir = root.resolve("webapp");
    this.config = root.resolve("config").resolve("ratelimit.yaml");
  }

  /** A fresh app whose filter reads {@code yaml}. */
  static WebApp create(String yaml) throws IOException {
    return create(yaml, "");
  }

  /** As above, with {@code moreWebXml} (listeners of this test only) added to the web.xml. */
  static WebApp create(String yaml, String moreWebXml) throws IOException {
    WebApp app = new WebApp(Files.createTempDirectory("sluice-it"));
    Files.createDirectories(app.config.getParent());
    Files.writeString(app.config, yaml);
    Path webXml = app.dir.resolve("WEB-INF").resolve("web.xml");
    Files.createDirectories(webXml.getParent());
    Files.writeString(
        webXml,
        String.format(WEB_XML, app.config, servletsXml() + moreWebXml),
        StandardCharsets.UTF_8);
    return app;
  }

  /** The test app's servlets and their mappings, as web.xml elements. */
  public static String servletsXml() {
    StringBuilder servlets = new StringBuilder();
    for (String[] s : SERVLETS) {
      servlets.append(
          String.format(
              "  <servlet><servlet-name>%s</servlet-name>"
                  + "<servlet-class>dev.sluice.it.app.%s</servlet-class>"
                  + "<async-supported>true</async-supported></servlet>%n "
                  + " <servlet-mapping><servlet-name>%1$s</servlet-name><url-pattern>%s</url-pattern>"
                  + "</servlet-mapping>%n",
              s[0], s[1], s[2]));
    }
    return servlets.toString();
  }

  Path dir() {
    return dir;
  }

  Path config() {
    return config;
  }

  /** Replaces the config as editors and ConfigMaps do: a new file moved over the old one. */
  void replaceConfig(String yaml) throws IOException {
    Path temp = config.resolveSibling("ratelimit.yaml.tmp");
    Files.writeString(temp, yaml);
    Files.move(temp, config, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Rewrites the config in place (truncate, then write), so a reader may see it half written. */
  void rewriteConfig(String yaml) throws IOException {
    Files.writeString(config, yaml);
  }

  void delete() throws IOException {
    deleteTree(root);
  }

  /** Copies the directory {@code from} with all it holds to {@code to}, keeping file attributes. */
  public static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  public static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
