package dev.sluice.it.agent;

class Tomcat9AgentAppFilterIT extends AppFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_9;
  }
}
