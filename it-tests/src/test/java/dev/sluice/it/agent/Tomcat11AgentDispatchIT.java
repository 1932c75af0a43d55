package dev.sluice.it.agent;

class Tomcat11AgentDispatchIT extends DispatchScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }
}
