package dev.sluice.it.agent;

class Tomcat11AgentPlainServletIT extends PlainServletScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }
}
