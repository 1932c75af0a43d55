package dev.sluice.it.agent;

class Tomcat10AgentAppFilterIT extends AppFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_10_1;
  }
}
