package dev.sluice.it.agent.dist;

/** Tomcat 11, jakarta.servlet (Servlet 6.1). */
class Tomcat11DistributionIT extends DistributionScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.tomcat11Distribution";
  }
}
