package dev.sluice.it.agent.dist;

/**
 * WildFly 26.1, the last javax.servlet release (Servlet 4.0; its servlet-only distribution), with
 * the flag added to standalone.conf's JAVA_OPTS: the agent adds its package to the {@code
 * jboss.modules.system.pkgs} standalone.conf sets.
 */
class WildFly26DistributionIT extends WildFlyScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.wildfly26Distribution";
  }

  @Override
  boolean javax() {
    return true;
  }

  @Override
  boolean flagInStandaloneConf() {
    return true;
  }
}
