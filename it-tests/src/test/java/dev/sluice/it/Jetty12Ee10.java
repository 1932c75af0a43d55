package dev.sluice.it;

import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** Embedded Jetty 12, environment ee10 (jakarta); the filter and app come from the class path. */
final class Jetty12Ee10 implements Container {
  private Server server;

  @Override
  public int start(Path webapp) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    WebAppContext context = new WebAppContext();
    context.setContextPath("/");
    context.setWar(webapp.toString());
    context.setThrowUnavailableOnStartupException(true);
    server.setHandler(context);
    server.start();
    return connector.getLocalPort();
  }

  @Override
  public void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }
}
