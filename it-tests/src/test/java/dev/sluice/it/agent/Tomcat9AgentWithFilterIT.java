package dev.sluice.it.agent;

class Tomcat9AgentWithFilterIT extends WithFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_9;
  }
}
