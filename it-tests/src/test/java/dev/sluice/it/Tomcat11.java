package dev.sluice.it;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;

/** Embedded Tomcat 11 (jakarta); the filter and the app come from the test class path. */
final class Tomcat11 implements Container {
  private Tomcat tomcat;
  private Path baseDir;

  @Override
  public int start(Path webapp) throws Exception {
    baseDir = Files.createTempDirectory("sluice-tomcat");
    tomcat = new Tomcat();
    tomcat.setBaseDir(baseDir.toString());
    // No conf/web.xml defaults (JSP servlet, default servlet): the app's web.xml is all there is.
    tomcat.setAddDefaultWebXmlToWebapp(false);
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    Context context = tomcat.addWebapp("", webapp.toString());
    // The class path is the whole test class path (Jetty included): nothing to scan there.
    ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
    tomcat.start();
    // Tomcat logs a filter that fails to start and carries on without the app; fail loudly instead.
    if (!context.getState().isAvailable()) {
      throw new IllegalStateException("the web app did not start: " + context.getState());
    }
    return connector.getLocalPort();
  }

  @Override
  public void stop() throws Exception {
    if (tomcat != null) {
      tomcat.stop();
      tomcat.destroy();
      WebApp.deleteTree(baseDir);
    }
  }
}
