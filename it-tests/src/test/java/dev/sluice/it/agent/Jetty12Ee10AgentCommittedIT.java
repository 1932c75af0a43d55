package dev.sluice.it.agent;

class Jetty12Ee10AgentCommittedIT extends CommittedScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE10;
  }
}
