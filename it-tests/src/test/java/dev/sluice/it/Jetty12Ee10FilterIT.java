package dev.sluice.it;

/** The Filter scenarios on embedded Jetty 12, environment ee10 (jakarta.servlet 6). */
class Jetty12Ee10FilterIT extends FilterScenarios {
  @Override
  Container container() {
    return new Jetty12Ee10();
  }
}
