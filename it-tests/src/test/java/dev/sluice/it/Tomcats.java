package dev.sluice.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Tomcat 11 servers a test class starts, each with a web app of its own ratelimit.yaml, stopped and
 * deleted together: for the tests that need more than one Filter (a fleet, or two stores).
 */
final class Tomcats {
  private final List<Container> containers = new ArrayList<>();
  private final List<WebApp> apps = new ArrayList<>();

  /** Starts one more server whose app reads {@code yaml}. */
  Http deploy(String yaml) throws Exception {
    WebApp app = WebApp.create(yaml);
    apps.add(app);
    Container container = new Tomcat11();
    containers.add(container);
    return new Http(container.start(app.dir()));
  }

  /** The app of the {@code index}-th server deployed, from 0. */
  WebApp app(int index) {
    return apps.get(index);
  }

  void stop() throws Exception {
    for (Container container : containers) {
      container.stop();
    }
  }

  void delete() throws IOException {
    for (WebApp app : apps) {
      app.delete();
    }
  }
}
