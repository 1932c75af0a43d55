package dev.sluice.it.agent;

class Tomcat10AgentCommittedIT extends CommittedScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_10_1;
  }
}
