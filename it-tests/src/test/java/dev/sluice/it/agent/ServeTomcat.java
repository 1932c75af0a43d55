package dev.sluice.it.agent;

import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * {@code main} of a container JVM: embedded Tomcat serving one web app directory at the root
 * context, on 127.0.0.1 at a free port. Compiled against Tomcat 11, it only calls what Tomcat 9 and
 * 10.1 have too, so one class starts all three. Prints {@code SERVING <port>} once it serves, and
 * stops when its standard input ends. {@link CommitEarlyValve} sits in front of the app.
 */
public final class ServeTomcat {
  private ServeTomcat() {}

  public static void main(String[] args) throws Exception {
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("sluice-agent-tomcat").toString());
    tomcat.setAddDefaultWebXmlToWebapp(false);
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    Context context = tomcat.addWebapp("", args[0]);
    context.getPipeline().addValve(new CommitEarlyValve());
    ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
    tomcat.start();
    if (!context.getState().isAvailable()) {
      throw new IllegalStateException("the web app did not start: " + context.getState());
    }
    System.out.println("SERVING " + connector.getLocalPort());
    awaitEndOfInput();
    tomcat.stop();
    tomcat.destroy();
  }

  static void awaitEndOfInput() throws IOException {
    while (System.in.read() >= 0) {
      // The test closes our input (or kills us) when it is done.
    }
  }
}
