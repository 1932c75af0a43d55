package dev.sluice.it.agent;

/** The agent on Java 25: its class files, Byte Buddy's reading of them, method handles. */
class Jetty12Ee8Java25AgentDispatchIT extends DispatchScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE8;
  }

  @Override
  String java() {
    return Settings.java25();
  }
}
