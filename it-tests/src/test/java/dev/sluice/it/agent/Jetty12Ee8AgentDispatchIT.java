package dev.sluice.it.agent;

class Jetty12Ee8AgentDispatchIT extends DispatchScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE8;
  }
}
