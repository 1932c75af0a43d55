package dev.sluice.it.agent;

import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** {@code main} of a container JVM: Jetty 12, ee10 (jakarta); see {@link ServeTomcat}. */
public final class ServeJetty12Ee10 {
  private ServeJetty12Ee10() {}

  public static void main(String[] args) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    WebAppContext context = new WebAppContext();
    context.setContextPath("/");
    context.setWar(args[0]);
    context.setThrowUnavailableOnStartupException(true);
    server.setHandler(new CommitEarlyHandler(context));
    server.start();
    System.out.println("SERVING " + connector.getLocalPort());
    ServeTomcat.awaitEndOfInput();
    server.stop();
  }
}
