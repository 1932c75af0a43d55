package dev.sluice.it;

/** The reload scenarios on embedded Jetty 12 ee10. */
class Jetty12Ee10ReloadIT extends ReloadScenarios {
  @Override
  Container container() {
    return new Jetty12Ee10();
  }
}
