package dev.sluice.it.redeploy;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * {@code main} of a container JVM that deploys and undeploys web app directories on command, at
 * {@code /app}, with Tomcat's own leak detection on (it logs what an undeployed application left
 * behind). Compiled against Tomcat 11, it only calls what Tomcat 9 has too. Prints {@code SERVING
 * <port>}, then reads commands, one a line, and answers each with a line {@code DONE <answer>}:
 * {@code deploy <directory>}, {@code undeploy}, and {@code measure},
 * which collects garbage until every undeployed application's class loader is gone (or a few
 * seconds have passed) and prints {@code MEASURED <threads> <open files> <heap bytes> <class
 * loaders of undeployed apps still alive>}.
 */
public final class ServeRedeploys {
  private static final int COLLECTIONS = 40;

  private final Tomcat tomcat = new Tomcat();
  private final List<WeakReference<ClassLoader>> loaders = new ArrayList<>();
  private Context app;

  private ServeRedeploys() {}

  public static void main(String[] args) throws Exception {
    ServeRedeploys server = new ServeRedeploys();
    int port = server.start();
    System.out.println("SERVING " + port);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      System.out.println("DONE " + server.run(line.trim()));
    }
    server.tomcat.stop();
    server.tomcat.destroy();
  }

  private int start() throws Exception {
    tomcat.setBaseDir(Files.createTempDirectory("sluice-redeploy-tomcat").toString());
    tomcat.setAddDefaultWebXmlToWebapp(false);
    Connector connector = new Connector("HTTP/1.1");
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    tomcat.getHost().setAutoDeploy(false);
    // No background processing (reloading, session expiry), which nothing here needs: a utility
    // thread that happens to be processing the app as it is undeployed carries the app's loader
    // as its context loader for that moment, which Tomcat reports as a thread the app started.
    tomcat.getEngine().setBackgroundProcessorDelay(-1);
    tomcat.start();
    return connector.getLocalPort();
  }

  private String run(String line) throws Exception {
    String[] words = line.split(" ", 2);
    switch (words[0]) {
      case "deploy":
        app = tomcat.addWebapp("/app", words[1]);
        if (!app.getState().isAvailable()) {
          return "FAILED the web app did not start: " + app.getState();
        }
        loaders.add(new WeakReference<>(app.getLoader().getClassLoader()));
        return "DEPLOYED";
      case "undeploy":
        tomcat.getHost().removeChild(app);
        app = null;
        return "UNDEPLOYED";
      case "measure":
        return measure();
      default:
        return "FAILED unknown command " + line;
    }
  }

  private String measure() throws InterruptedException {
    long alive = loaders.size();
    for (int i = 0; i < COLLECTIONS && alive > 0; i++) {
      System.gc();
      Thread.sleep(100);
      alive = loaders.stream().filter(loader -> loader.get() != null).count();
    }
    System.gc();
    String[] fds = new File("/proc/self/fd").list();
    return String.format(
        "MEASURED %d %d %d %d",
        Thread.getAllStackTraces().size(),
        fds == null ? -1 : fds.length,
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
        alive);
  }
}
