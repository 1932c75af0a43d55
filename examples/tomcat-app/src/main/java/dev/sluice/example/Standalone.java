package dev.sluice.example;

import java.io.File;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * Runs the WAR's web app on embedded Tomcat, reading its real web.xml: {@code -Dport=8080} (the
 * default), {@code -Dsluice.example.webapp=<dir>} for the web app directory, {@code
 * -Dsluice.example.address=127.0.0.1} to listen on one address only (default: all).
 */
public final class Standalone {
  private Standalone() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(System.getProperty("port", "8080"));
    String webapp = System.getProperty("sluice.example.webapp", "src/main/webapp");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("sluice-example").toString());
    tomcat.setPort(port);
    Connector connector = tomcat.getConnector();
    String address = System.getProperty("sluice.example.address");
    if (address != null) {
      connector.setProperty("address", address);
    }
    // Plain servlets only: no JSP engine, so skip Tomcat's default web.xml that declares one, but
    // keep its default servlet, as every Tomcat has: unmapped paths get its 404, not the mapper's.
    tomcat.setAddDefaultWebXmlToWebapp(false);
    Context context = tomcat.addWebapp("", new File(webapp).getAbsolutePath());
    Tomcat.addServlet(context, "default", new DefaultServlet()).setLoadOnStartup(1);
    context.addServletMappingDecoded("/", "default");
    // Under `mvn exec:java` the system class loader is Maven's own; Tomcat must sit above the app.
    context.setParentClassLoader(Standalone.class.getClassLoader());
    // The classes are on the class path already; scanning every jar for annotations is slow.
    ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
    tomcat.start();
    System.out.println(
        "Sluice example on http://localhost:"
            + port
            + "/  (try GET /api/hello, POST /login, GET /health); Ctrl-C to stop");
    tomcat.getServer().await();
  }
}
