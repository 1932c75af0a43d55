package dev.sluice.metrics;

import java.io.Closeable;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * A limiter's {@link Metrics} as MXBeans of the platform MBean server, for jconsole, VisualVM and
 * the Prometheus JMX exporter: {@code dev.sluice:type=Config,context=C}, {@code
 * dev.sluice:type=Store,context=C} and {@code dev.sluice:type=Rule,context=C,name=<rule id>} for
 * each rule in force, following reloads.
 *
 * <p>One JVM may run several limiters (two web applications with the Filter, the agent beside a
 * Filter), each with its own beans: {@code context} tells them apart, and a context already taken
 * gets a suffix ({@code -2}, {@code -3}…) rather than failing. Everything is unregistered on {@link
 * #close}, or the beans would keep an undeployed application's class loader alive.
 */
public final class Jmx implements Closeable {
  private static final Logger LOG = Logger.getLogger("dev.sluice.metrics");
  static final String DOMAIN = "dev.sluice";
  private static final int MAX_SUFFIX = 100;

  private final MBeanServer server;
  private final Metrics metrics;
  private final String context;
  private final Map<String, ObjectName> rules = new HashMap<>();
  private final Set<ObjectName> registered = new HashSet<>();
  private final Runnable follow = this::followRules;
  private boolean closed;

  private Jmx(MBeanServer server, Metrics metrics, String context) {
    this.server = server;
    this.metrics = metrics;
    this.context = context;
  }

  /**
   * Registers {@code metrics} under the context {@code name}, or the first of {@code name-2},
   * {@code name-3}… that no other limiter took. Never throws: without JMX (a security manager that
   * forbids it, say) the limiter only lacks its beans, which is logged.
   */
  public static Jmx register(Metrics metrics, String name) {
    String base = name.replaceAll("[^A-Za-z0-9_.\\-/]", "_");
    try {
      MBeanServer server = platformServer();
      for (int n = 1; n <= MAX_SUFFIX; n++) {
        Jmx jmx = new Jmx(server, metrics, n == 1 ? base : base + "-" + n);
        if (jmx.start()) {
          return jmx;
        }
      }
      LOG.warning("Sluice: no free JMX context for " + base + "; its MBeans are not registered");
    } catch (RuntimeException | LinkageError e) {
      LOG.log(Level.WARNING, "Sluice could not register its MBeans", e);
    }
    return new Jmx(null, metrics, null);
  }

  /**
   * The platform MBean server, made now if nobody asked for it before. A server may name its own
   * builder for it ({@code javax.management.builder.initial}: Open Liberty does), which the JDK
   * loads through the context class loader, and Sluice's threads have none; the system class loader,
   * which loaded the server's launcher, stands in for that one call.
   */
  public static MBeanServer platformServer() {
    Thread current = Thread.currentThread();
    if (current.getContextClassLoader() != null) {
      return ManagementFactory.getPlatformMBeanServer();
    }
    current.setContextClassLoader(ClassLoader.getSystemClassLoader());
    try {
      return ManagementFactory.getPlatformMBeanServer();
    } finally {
      current.setContextClassLoader(null);
    }
  }

  /** Registers every bean; false if another limiter has this context. */
  private synchronized boolean start() {
    try {
      register(name("Config", null), JmxBeans.config(metrics));
    } catch (InstanceAlreadyExistsException e) {
      return false;
    } catch (JMException e) {
      throw new IllegalStateException(e);
    }
    try {
      register(name("Store", null), JmxBeans.store(metrics));
    } catch (JMException | RuntimeException e) {
      close();
      throw new IllegalStateException(e);
    }
    metrics.onRulesChanged(follow);
    followRules();
    return true;
  }

  /** The context key these beans were registered under; null if they were not. */
  public String context() {
    return context;
  }

  private synchronized void followRules() {
    if (closed) {
      return;
    }
    Map<String, RuleCounters> live = new HashMap<>();
    for (RuleCounters counters : metrics.live()) {
      live.put(counters.ruleId(), counters);
    }
    for (String id : new HashSet<>(rules.keySet())) {
      if (!live.containsKey(id)) {
        unregister(rules.remove(id));
      }
    }
    for (Map.Entry<String, RuleCounters> rule : live.entrySet()) {
      if (!rules.containsKey(rule.getKey())) {
        try {
          ObjectName name = name("Rule", rule.getKey());
          register(name, JmxBeans.rule(rule.getValue(), metrics));
          rules.put(rule.getKey(), name);
        } catch (JMException e) {
          LOG.log(Level.WARNING, "Sluice could not register the MBean of rule " + rule.getKey(), e);
        }
      }
    }
  }

  private ObjectName name(String type, String rule) throws JMException {
    return new ObjectName(
        DOMAIN + ":type=" + type + ",context=" + context + (rule == null ? "" : ",name=" + rule));
  }

  private void register(ObjectName name, StandardMBean bean) throws JMException {
    server.registerMBean(bean, name);
    registered.add(name);
  }

  private void unregister(ObjectName name) {
    try {
      server.unregisterMBean(name);
    } catch (JMException e) {
      LOG.log(Level.FINE, "MBean " + name + " was gone already", e);
    }
    registered.remove(name);
  }

  @Override
  public synchronized void close() {
    if (server == null || closed) {
      return;
    }
    closed = true;
    metrics.stopOnRulesChanged(follow);
    for (ObjectName name : new HashSet<>(registered)) {
      unregister(name);
    }
    rules.clear();
  }
}
