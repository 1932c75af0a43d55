package dev.sluice.it.agent;

class Tomcat9AgentCommittedIT extends CommittedScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_9;
  }
}
