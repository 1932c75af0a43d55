package dev.sluice.http;

import dev.sluice.metrics.Jmx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.NotCompliantMBeanException;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * The count of delayed requests waiting in this JVM, shared by every copy of Sluice in it: the
 * agent's (its own isolated class loader) and each web application's Filter (its loader), so that
 * the file's {@code max_waiting} bounds them all together, not one copy's. A static field would be
 * one count per loader; what every loader reaches is the JVM's platform MBean server, and what
 * every loader understands is JDK types. So the count is a JDK {@link AtomicInteger}, published
 * once under {@link #NAME} by a JDK {@link StandardMBean} over a completed future of it: no
 * class of any Sluice copy is kept by it, so no undeployed application's loader is pinned, and
 * each copy fetches the counter once and then uses it directly (no JMX on the request path).
 *
 * <p>Where the MBean server refuses (a security manager, a broken builder), this copy counts
 * alone, as one copy of the classes did before, and says so once.
 */
final class JvmWaiting {
  private static final Logger LOG = Logger.getLogger("dev.sluice.http");

  /** Where the JVM's counter is published. */
  static final String NAME = "dev.sluice:type=Waiting";

  private static volatile AtomicInteger count;

  private JvmWaiting() {}

  /** The requests waiting in this JVM now, counted by every copy of Sluice alike. */
  static AtomicInteger count() {
    AtomicInteger found = count;
    if (found == null) {
      synchronized (JvmWaiting.class) {
        found = count;
        if (found == null) {
          found = find();
          count = found;
        }
      }
    }
    return found;
  }

  private static AtomicInteger find() {
    try {
      MBeanServer server = Jmx.platformServer();
      ObjectName name = new ObjectName(NAME);
      if (!server.isRegistered(name)) {
        try {
          server.registerMBean(publication(), name);
        } catch (InstanceAlreadyExistsException e) {
          // Another copy published it first: that one is the JVM's.
        }
      }
      return (AtomicInteger) server.invoke(name, "get", new Object[0], new String[0]);
    } catch (JMException | RuntimeException | LinkageError e) {
      LOG.log(
          Level.WARNING,
          "Sluice could not share its count of waiting requests through JMX; max_waiting bounds"
              + " the requests of this copy of Sluice alone",
          e);
      return new AtomicInteger();
    }
  }

  /**
   * A JDK standard MBean over a completed JDK {@link CompletableFuture} of the counter: its {@code
   * get} operation answers the counter itself. Not a {@code RequiredModelMBean}, which keeps the
   * access-control context it was made in, and with it the protection domain, and so the class
   * loader, of the web application whose request made it (Tomcat11RedeployIT found that loader
   * alive after the application was undeployed).
   */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private static StandardMBean publication() throws NotCompliantMBeanException {
    Future counter = CompletableFuture.completedFuture(new AtomicInteger());
    return new StandardMBean(counter, (Class) Future.class);
  }
}
