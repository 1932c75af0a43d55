package dev.sluice.it.agent;

import org.eclipse.jetty.ee8.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** {@code main} of a container JVM: Jetty 12, ee8 (javax.servlet 4); see {@link ServeTomcat}. */
public final class ServeJetty12Ee8 {
  private ServeJetty12Ee8() {}

  public static void main(String[] args) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    WebAppContext context = new WebAppContext();
    context.setContextPath("/");
    context.setWar(args[0]);
    context.setParentLoaderPriority(false);
    context.setThrowUnavailableOnStartupException(true);
    context.insertHandler(new CommitEarlyEe8Handler());
    server.setHandler(context.get());
    server.start();
    System.out.println("SERVING " + connector.getLocalPort());
    ServeTomcat.awaitEndOfInput();
    server.stop();
  }
}
