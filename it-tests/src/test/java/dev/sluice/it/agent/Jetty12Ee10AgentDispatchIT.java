package dev.sluice.it.agent;

class Jetty12Ee10AgentDispatchIT extends DispatchScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE10;
  }
}
