package dev.sluice.agent.install;

import dev.sluice.agent.bootstrap.Gatekeeper;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether advice inlined into a class loader's classes can reach the bridge on the boot class path.
 * Most loaders ask their parent first, and so the boot loader; a JBoss module asks it only for the
 * packages {@code jboss.modules.system.pkgs} names, an OSGi bundle only for those of {@code
 * org.osgi.framework.bootdelegation}. Advice that cannot reach the bridge would fail at every call
 * (a {@code NoClassDefFoundError}, swallowed: nothing limited, nothing logged), so such a loader's
 * classes are left alone, and the log says so once, with the fix.
 */
final class BridgeCheck {
  /** The bridge's package, which a module system must hand to the boot class path. */
  static final String PACKAGE = "dev.sluice.agent.bootstrap";

  private final SeesClass seesBridge = new SeesClass(Gatekeeper.class.getName());
  private final AtomicBoolean told = new AtomicBoolean();

  /** True if {@code loader} sees the bridge; otherwise says so (once) about {@code type}. */
  boolean reachableFrom(ClassLoader loader, String type) {
    if (seesBridge.matches(loader)) {
      return true;
    }
    if (told.compareAndSet(false, true)) {
      AgentLog.warning(
          "Sluice: "
              + type
              + " is not limited: its class loader ("
              + loader.getClass().getName()
              + ") cannot see the agent's bridge on the boot class path. On JBoss Modules add "
              + PACKAGE
              + " to -D"
              + JBossModules.SYSTEM_PACKAGES
              + " (the agent does so itself when started with -javaagent); on OSGi, to"
              + " org.osgi.framework.bootdelegation (the agent does so itself on Liberty, GlassFish"
              + " and Payara when started with -javaagent). Said once; such loaders are left alone");
    }
    return false;
  }
}
