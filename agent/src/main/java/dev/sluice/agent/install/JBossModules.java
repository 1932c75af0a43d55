package dev.sluice.agent.install;

/**
 * JBoss Modules (WildFly, JBoss EAP): a module's class loader does not ask the boot class path for
 * packages outside {@code java.*} unless the system property {@code jboss.modules.system.pkgs}
 * names them, so advice inlined into Undertow could not reach the agent's bridge. JBoss Modules
 * reads the property once, when its {@code main} starts: {@code premain}, before it, adds the
 * bridge's package to it. No other property, no class of JBoss Modules is touched.
 */
final class JBossModules {
  static final String SYSTEM_PACKAGES = "jboss.modules.system.pkgs";
  private static final String BRIDGE = BridgeCheck.PACKAGE;
  private static final String MAIN = "org/jboss/modules/Main.class";

  private JBossModules() {}

  /**
   * Makes the bridge visible to JBoss Modules if this JVM runs it; returns what to log about it,
   * or null if there is nothing to say.
   */
  static String exposeBridge(boolean premain) {
    String packages = System.getProperty(SYSTEM_PACKAGES);
    if (packages == null && ClassLoader.getSystemResource(MAIN) == null) {
      return null;
    }
    if (PackageList.covers(packages, BRIDGE, true)) {
      return null;
    }
    if (!premain) {
      return "Sluice: JBoss Modules read "
          + SYSTEM_PACKAGES
          + " when this JVM started, without "
          + BRIDGE
          + ": requests to its modules (WildFly's Undertow) are not limited. Start it with"
          + " -javaagent, or with -D"
          + SYSTEM_PACKAGES
          + "="
          + PackageList.with(packages, BRIDGE);
    }
    System.setProperty(SYSTEM_PACKAGES, PackageList.with(packages, BRIDGE));
    return null;
  }
}
