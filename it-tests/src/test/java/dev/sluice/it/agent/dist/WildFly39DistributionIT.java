package dev.sluice.it.agent.dist;

/**
 * WildFly 39, jakarta.servlet (Servlet 6.1), with JAVA_OPTS set to the agent flag alone:
 * standalone.conf then sets no {@code jboss.modules.system.pkgs} at all, and the agent does.
 */
class WildFly39DistributionIT extends WildFlyScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.wildfly39Distribution";
  }

  @Override
  boolean javax() {
    return false;
  }

  @Override
  boolean flagInStandaloneConf() {
    return false;
  }
}
