package dev.sluice.it;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.eclipse.jetty.ee8.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Embedded Jetty 12, environment ee8 (javax.servlet 4), running the javax artifacts: the filter's
 * and the app's javax jars go into WEB-INF/lib with sluice-core (a memory-only application's
 * Sluice), and the web app class loader (parent last) loads every {@code dev.sluice} class from
 * there, not the jakarta twins of the same names on the test class path. {@link #loadedFrom} lets
 * a test prove it.
 */
final class Jetty12Ee8Javax implements Container {
  static final String FILTER_JAR = "sluice-filter-javax.jar";
  static final String APP_JAR = "sluice-it-app-javax.jar";

  private Server server;
  private WebAppContext context;

  @Override
  public int start(Path webapp) throws Exception {
    Path lib = Files.createDirectories(webapp.resolve("WEB-INF/lib"));
    Files.copy(jar("sluice.it.javaxFilterJar"), lib.resolve(FILTER_JAR));
    Files.copy(jar("sluice.it.coreJar"), lib.resolve("sluice-core.jar"));
    Files.copy(jar("sluice.it.javaxAppJar"), lib.resolve(APP_JAR));
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    context = new WebAppContext();
    context.setContextPath("/");
    context.setWar(webapp.toString());
    context.setParentLoaderPriority(false);
    context.setThrowUnavailableOnStartupException(true);
    server.setHandler(context.get());
    server.start();
    return connector.getLocalPort();
  }

  /** The jar (or directory) the class of a deployed filter or servlet was loaded from. */
  Path loadedFrom(Object instance) throws URISyntaxException {
    return Paths.get(
        instance.getClass().getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** The live filter instance named {@code name} in web.xml. */
  Object filter(String name) {
    return context.getServletHandler().getFilter(name).getFilter();
  }

  /** The live servlet instance named {@code name} in web.xml. */
  Object servlet(String name) throws Exception {
    return context.getServletHandler().getServlet(name).getServlet();
  }

  private static Path jar(String property) {
    String path = System.getProperty(property);
    if (path == null || !Files.isRegularFile(Paths.get(path))) {
      throw new IllegalStateException(
          property + " must name a built jar (run through mvn verify), " + "got " + path);
    }
    return Paths.get(path);
  }

  @Override
  public void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }
}
