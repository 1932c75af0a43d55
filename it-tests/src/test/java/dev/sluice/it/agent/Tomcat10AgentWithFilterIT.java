package dev.sluice.it.agent;

class Tomcat10AgentWithFilterIT extends WithFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_10_1;
  }
}
