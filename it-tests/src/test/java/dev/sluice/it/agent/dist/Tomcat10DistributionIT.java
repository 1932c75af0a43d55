package dev.sluice.it.agent.dist;

/** Tomcat 10.1, jakarta.servlet (Servlet 6.0). */
class Tomcat10DistributionIT extends DistributionScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.tomcat10Distribution";
  }
}
