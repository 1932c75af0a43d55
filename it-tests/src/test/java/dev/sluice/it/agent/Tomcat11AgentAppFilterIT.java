package dev.sluice.it.agent;

class Tomcat11AgentAppFilterIT extends AppFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }
}
