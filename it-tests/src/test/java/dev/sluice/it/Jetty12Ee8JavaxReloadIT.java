package dev.sluice.it;

/** The reload scenarios on embedded Jetty 12 ee8 with the javax artifacts. */
class Jetty12Ee8JavaxReloadIT extends ReloadScenarios {
  @Override
  Container container() {
    return new Jetty12Ee8Javax();
  }
}
