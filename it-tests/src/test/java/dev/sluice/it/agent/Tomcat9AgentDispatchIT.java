package dev.sluice.it.agent;

class Tomcat9AgentDispatchIT extends DispatchScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_9;
  }
}
