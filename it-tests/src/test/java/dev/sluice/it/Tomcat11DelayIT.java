package dev.sluice.it;

/** A rule's delay through the Filter on embedded Tomcat 11. */
class Tomcat11DelayIT extends DelayScenarios {
  @Override
  Container container() {
    return new Tomcat11();
  }
}
