package dev.sluice.it.agent;

class Tomcat11AgentWithFilterIT extends WithFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }
}
