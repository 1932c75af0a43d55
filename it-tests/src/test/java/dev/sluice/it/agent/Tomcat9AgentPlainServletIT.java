package dev.sluice.it.agent;

class Tomcat9AgentPlainServletIT extends PlainServletScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_9;
  }
}
