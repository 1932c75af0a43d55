package dev.sluice.it.agent.dist;

/** Tomcat 9.0: javax.servlet. */
class Tomcat9DistributionIT extends DistributionScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.tomcat9Distribution";
  }
}
