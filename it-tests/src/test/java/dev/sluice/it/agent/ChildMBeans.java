package dev.sluice.it.agent;

import com.sun.tools.attach.VirtualMachine;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The MBeans of a child JVM, read through the local management agent the Attach API starts in it:
 * what jconsole or VisualVM would show an operator.
 */
public final class ChildMBeans implements AutoCloseable {
  private final JMXConnector connector;
  private final MBeanServerConnection server;

  private ChildMBeans(JMXConnector connector) throws Exception {
    this.connector = connector;
    this.server = connector.getMBeanServerConnection();
  }

  public static ChildMBeans of(long pid) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
    try {
      return new ChildMBeans(
          JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent())));
    } finally {
      vm.detach();
    }
  }

  public Object attribute(String name, String attribute) throws Exception {
    return server.getAttribute(new ObjectName(name), attribute);
  }

  @Override
  public void close() throws Exception {
    connector.close();
  }
}
