package dev.sluice.it.agent.dist;

/** Jetty 9.4 (jetty-distribution): javax.servlet. */
class Jetty94DistributionIT extends JettyScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.jetty94Distribution";
  }

  @Override
  boolean javax() {
    return true;
  }

  @Override
  String addModules() {
    return "--add-to-start=http,deploy";
  }
}
