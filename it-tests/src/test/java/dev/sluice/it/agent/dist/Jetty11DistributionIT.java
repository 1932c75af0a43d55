package dev.sluice.it.agent.dist;

/** Jetty 11.0 (jetty-home): jakarta.servlet. */
class Jetty11DistributionIT extends JettyScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.jetty11Distribution";
  }

  @Override
  boolean javax() {
    return false;
  }

  @Override
  String addModules() {
    return "--add-module=http,deploy";
  }
}
