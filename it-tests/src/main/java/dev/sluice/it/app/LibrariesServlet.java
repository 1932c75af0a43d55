package dev.sluice.it.app;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.security.CodeSource;
import java.util.Enumeration;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * {@code GET /libraries}: which Jedis, SnakeYAML and SLF4J the web app itself sees, one {@code
 * key=value} line each, for an app that bundles its own in WEB-INF/lib. For each library: the jar
 * its class came from, the version in that jar's pom.properties and its Implementation-Version, and
 * whether the web app's loader defined it; then each library put to use, Jedis on a real server too
 * when {@code ?redis=host:port} names one. Reflection only: the app does not compile against them,
 * so it runs whatever versions it is deployed with.
 */
public class LibrariesServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** Key prefix and class name of each library probed. */
  private static final String[][] LIBRARIES = {
    {"jedis", "redis.clients.jedis.Jedis"},
    {"snakeyaml", "org.yaml.snakeyaml.Yaml"},
    {"slf4j", "org.slf4j.LoggerFactory"},
  };

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    ClassLoader loader = LibrariesServlet.class.getClassLoader();
    StringBuilder out = new StringBuilder();
    for (String[] library : LIBRARIES) {
      describe(out, library[0], library[1], loader);
    }
    use(out, loader, request.getParameter("redis"));
    response.setContentType("text/plain");
    response.setCharacterEncoding("UTF-8");
    response.getWriter().write(out.toString());
  }

  private static void describe(StringBuilder out, String key, String name, ClassLoader loader) {
    try {
      Class<?> type = Class.forName(name, true, loader);
      File jar = jarOf(type);
      line(out, key + ".jar", jar == null ? "none" : jar.getPath());
      line(out, key + ".pomVersion", jar == null ? "none" : pomVersion(jar));
      String implementation = type.getPackage().getImplementationVersion();
      line(out, key + ".implementationVersion", implementation == null ? "none" : implementation);
      line(out, key + ".fromWebAppLoader", Boolean.toString(type.getClassLoader() == loader));
    } catch (ReflectiveOperationException | IOException | LinkageError e) {
      line(out, key + ".error", e.toString());
    }
  }

  /** Each library at work, through the web app's loader. */
  private static void use(StringBuilder out, ClassLoader loader, String redis) {
    try {
      Object yaml =
          Class.forName("org.yaml.snakeyaml.Yaml", true, loader).getConstructor().newInstance();
      Object loaded = yaml.getClass().getMethod("load", String.class).invoke(yaml, "answer: 42");
      line(out, "snakeyaml.load", String.valueOf(loaded));

      Class<?> factory = Class.forName("org.slf4j.LoggerFactory", true, loader);
      Object logger = factory.getMethod("getLogger", String.class).invoke(null, "libraries");
      line(out, "slf4j.logger", logger.getClass().getName());
      logger.getClass().getMethod("info", String.class).invoke(logger, "LibrariesServlet probed");

      Class<?> hostAndPort = Class.forName("redis.clients.jedis.HostAndPort", true, loader);
      Object parsed = hostAndPort.getMethod("from", String.class).invoke(null, "127.0.0.1:6379");
      line(out, "jedis.hostAndPort", String.valueOf(parsed));
      if (redis != null) {
        line(out, "jedis.roundTrip", roundTrip(loader, redis));
      }
    } catch (ReflectiveOperationException | LinkageError e) {
      line(out, "use.error", e.toString());
    }
  }

  /** SET then GET of one key through the app's own Jedis; returns what GET answered. */
  private static String roundTrip(ClassLoader loader, String redis)
      throws ReflectiveOperationException {
    int colon = redis.lastIndexOf(':');
    Object jedis =
        Class.forName("redis.clients.jedis.Jedis", true, loader)
            .getConstructor(String.class, int.class)
            .newInstance(redis.substring(0, colon), Integer.parseInt(redis.substring(colon + 1)));
    try {
      jedis.getClass().getMethod("set", String.class, String.class).invoke(jedis, "app:k", "v1");
      return String.valueOf(jedis.getClass().getMethod("get", String.class).invoke(jedis, "app:k"));
    } finally {
      jedis.getClass().getMethod("close").invoke(jedis);
    }
  }

  /** The jar a class was loaded from, or null if it came from elsewhere (a directory, the JDK). */
  private static File jarOf(Class<?> type) {
    CodeSource source = type.getProtectionDomain().getCodeSource();
    URL location = source == null ? null : source.getLocation();
    if (location == null) {
      return null;
    }
    String url = location.toString();
    int separator = url.indexOf("!/");
    if (url.startsWith("jar:")) {
      url = url.substring("jar:".length(), separator < 0 ? url.length() : separator);
    }
    if (!url.startsWith("file:") || !url.endsWith(".jar")) {
      return null;
    }
    try {
      return new File(new URI(url));
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /** The version in the jar's one {@code META-INF/maven/.../pom.properties}. */
  private static String pomVersion(File jar) throws IOException {
    try (JarFile file = new JarFile(jar)) {
      for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        String name = entry.getName();
        if (name.startsWith("META-INF/maven/") && name.endsWith("/pom.properties")) {
          Properties properties = new Properties();
          try (InputStream in = file.getInputStream(entry)) {
            properties.load(in);
          }
          return properties.getProperty("version", "none");
        }
      }
    }
    return "none";
  }

  private static void line(StringBuilder out, String key, String value) {
    out.append(key).append('=').append(value.replace('\n', ' ')).append('\n');
  }
}
