package dev.sluice.it.agent;

class Tomcat10AgentDispatchIT extends DispatchScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_10_1;
  }
}
