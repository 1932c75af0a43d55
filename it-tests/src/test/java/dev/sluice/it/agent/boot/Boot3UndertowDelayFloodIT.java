package dev.sluice.it.agent.boot;

/** {@link DelayFloodScenario} on Spring Boot 3 with Undertow (16 workers on two cores). */
class Boot3UndertowDelayFloodIT extends DelayFloodScenario {
  @Override
  String jarProperty() {
    return "sluice.it.boot3UndertowJar";
  }
}
