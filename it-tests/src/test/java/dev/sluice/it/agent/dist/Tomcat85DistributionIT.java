package dev.sluice.it.agent.dist;

import org.junit.jupiter.api.Test;

/** Tomcat 8.5, the last of it: javax.servlet, Servlet 3.1. */
class Tomcat85DistributionIT extends DistributionScenario {
  @Override
  String distributionProperty() {
    return "sluice.it.tomcat85Distribution";
  }

  @Override
  boolean withJavaxTestApp() {
    return true;
  }

  @Test
  void theTestAppsServletNeverRunsForA429() throws Exception {
    DistributionChecks.assertTheAppNeverSeesA429(http, "10.20.2.1");
  }
}
