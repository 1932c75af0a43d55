package dev.sluice.it.agent;

class Tomcat11AgentCommittedIT extends CommittedScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }
}
