package dev.sluice.it.agent;

class Tomcat10AgentPlainServletIT extends PlainServletScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_10_1;
  }
}
