package dev.sluice.http;

import dev.sluice.metrics.Jmx;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.Descriptor;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.modelmbean.DescriptorSupport;
import javax.management.modelmbean.InvalidTargetObjectTypeException;
import javax.management.modelmbean.ModelMBeanInfoSupport;
import javax.management.modelmbean.ModelMBeanOperationInfo;
import javax.management.modelmbean.RequiredModelMBean;

/**
 * The count of delayed requests waiting in this JVM, shared by every copy of Sluice in it: the
 * agent's (its own isolated class loader) and each web application's Filter (its loader), so that
 * the file's {@code max_waiting} bounds them all together, not one copy's. A static field would be
 * one count per loader; what every loader reaches is the JVM's platform MBean server, and what
 * every loader understands is JDK types. So the count is a JDK {@link AtomicInteger}, published
 * once under {@link #NAME} by a JDK {@link RequiredModelMBean} over an {@link AtomicReference}: no
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
    } catch (JMException | InvalidTargetObjectTypeException | RuntimeException | LinkageError e) {
      LOG.log(
          Level.WARNING,
          "Sluice could not share its count of waiting requests through JMX; max_waiting bounds"
              + " the requests of this copy of Sluice alone",
          e);
      return new AtomicInteger();
    }
  }

  /** A JDK model MBean whose one operation, {@code get}, answers the counter itself. */
  private static RequiredModelMBean publication()
      throws JMException, InvalidTargetObjectTypeException {
    Descriptor get =
        new DescriptorSupport(
            "name=get", "descriptorType=operation", "role=operation", "currencyTimeLimit=-1");
    ModelMBeanOperationInfo operation =
        new ModelMBeanOperationInfo(
            "get",
            "The counter of requests waiting in this JVM (an AtomicInteger)",
            new MBeanParameterInfo[0],
            AtomicInteger.class.getName(),
            MBeanOperationInfo.INFO,
            get);
    RequiredModelMBean bean =
        new RequiredModelMBean(
            new ModelMBeanInfoSupport(
                AtomicReference.class.getName(),
                "Delayed requests waiting in this JVM, shared by every copy of Sluice",
                null,
                null,
                new ModelMBeanOperationInfo[] {operation},
                null));
    bean.setManagedResource(new AtomicReference<>(new AtomicInteger()), "ObjectReference");
    return bean;
  }
}
