package dev.sluice.it.agent.robust;

import java.lang.management.ManagementFactory;
import java.util.logging.LogManager;
import javax.management.MBeanServer;
import javax.management.MBeanServerBuilder;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerFactory;

/**
 * {@code main} of a JVM started with the agent that sets up the JVM's global state itself, late, as
 * JBoss Modules does for WildFly: its own {@link LogManager} (through {@code
 * java.util.logging.manager}, set in main) and then the platform MBean server. Prints what it found
 * before and what it got, then stays until its input ends.
 */
public final class LateSetUpApp {
  private LateSetUpApp() {}

  public static void main(String[] args) throws Exception {
    // Counted before anything here touches JMX: a platform MBean server made already is not ours.
    int mbeanServers = MBeanServerFactory.findMBeanServer(null).size();
    System.setProperty("java.util.logging.manager", OwnLogManager.class.getName());
    String logManager = LogManager.getLogManager().getClass().getName();
    System.setProperty("javax.management.builder.initial", OwnBuilder.class.getName());
    ManagementFactory.getPlatformMBeanServer();
    // One line: the agent's lines, from a thread of its own, may come before it or after it.
    System.out.println(
        "SET_UP mbeanServersAtMain="
            + mbeanServers
            + " logManager="
            + logManager
            + " mbeanServerBuiltByApp="
            + OwnBuilder.used);
    while (System.in.read() >= 0) {
      // The test closes our input (or kills us) when it is done.
    }
  }

  /** The application's own log manager: JUL's, under another name. */
  public static final class OwnLogManager extends LogManager {}

  /** The application's own MBean server builder: the JDK's, noting that it was used. */
  public static final class OwnBuilder extends MBeanServerBuilder {
    static volatile boolean used;

    @Override
    public MBeanServer newMBeanServer(
        String defaultDomain, MBeanServer outer, MBeanServerDelegate delegate) {
      used = true;
      return super.newMBeanServer(defaultDomain, outer, delegate);
    }
  }
}
