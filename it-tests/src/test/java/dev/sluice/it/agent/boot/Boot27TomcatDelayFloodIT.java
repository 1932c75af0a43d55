package dev.sluice.it.agent.boot;

/** {@link DelayFloodScenario} on Spring Boot 2.7 with its Tomcat 9 (200 threads). */
class Boot27TomcatDelayFloodIT extends DelayFloodScenario {
  @Override
  String jarProperty() {
    return "sluice.it.boot27Jar";
  }
}
