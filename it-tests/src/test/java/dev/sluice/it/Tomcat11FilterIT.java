package dev.sluice.it;

/** The Filter scenarios on embedded Tomcat 11 (jakarta.servlet 6.1). */
class Tomcat11FilterIT extends FilterScenarios {
  @Override
  Container container() {
    return new Tomcat11();
  }
}
