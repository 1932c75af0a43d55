package dev.sluice.it;

/** The reload scenarios on embedded Tomcat 11. */
class Tomcat11ReloadIT extends ReloadScenarios {
  @Override
  Container container() {
    return new Tomcat11();
  }
}
