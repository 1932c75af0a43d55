package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

/** One container serving one generated web app, for the life of a test class. */
final class Deployment {
  private static final long THREADS_END_WITHIN_MILLIS = 5_000;

  private final Container container;
  private final WebApp app;
  private final int port;
  private final Http http;

  private Deployment(Container container, WebApp app, int port) {
    this.container = container;
    this.app = app;
    this.port = port;
    this.http = new Http(port);
  }

  /** Deploys a fresh web app whose filter reads {@code yaml}. */
  static Deployment start(Container container, String yaml) throws Exception {
    return start(container, yaml, "");
  }

  /** As above, with {@code moreWebXml} added to the app's web.xml. */
  static Deployment start(Container container, String yaml, String moreWebXml) throws Exception {
    WebApp app = WebApp.create(yaml, moreWebXml);
    try {
      return new Deployment(container, app, container.start(app.dir()));
    } catch (Exception e) {
      try {
        container.stop(); // whatever part of it did start
      } finally {
        app.delete();
      }
      throw e;
    }
  }

  /** The container's port on 127.0.0.1. */
  int port() {
    return port;
  }

  Http http() {
    return http;
  }

  WebApp app() {
    return app;
  }

  /**
   * Stops the container and checks that Filter.destroy() ended Sluice's threads (config watcher,
   * store sweeper): a thread left behind would pin the web app's class loader after undeploy.
   */
  void stop() throws Exception {
    try {
      container.stop();
      long deadline = System.currentTimeMillis() + THREADS_END_WITHIN_MILLIS;
      while (!sluiceThreads().isEmpty() && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(sluiceThreads()).as("Sluice threads alive after the container stopped").isEmpty();
    } finally {
      app.delete();
    }
  }

  private static List<String> sluiceThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("sluice-"))
        .map(Thread::getName)
        .collect(Collectors.toList());
  }
}
