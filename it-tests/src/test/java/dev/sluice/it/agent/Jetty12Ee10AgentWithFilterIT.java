package dev.sluice.it.agent;

class Jetty12Ee10AgentWithFilterIT extends WithFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE10;
  }
}
