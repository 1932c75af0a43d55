package dev.sluice.it.agent;

class Jetty12Ee8AgentAppFilterIT extends AppFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE8;
  }
}
