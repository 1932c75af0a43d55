package dev.sluice.it.agent.dist;

/** Jetty 10.0 (jetty-home): javax.servlet. */
class Jetty10DistributionIT extends JettyScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.jetty10Distribution";
  }

  @Override
  boolean javax() {
    return true;
  }

  @Override
  String addModules() {
    return "--add-module=http,deploy";
  }
}
