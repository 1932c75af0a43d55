package dev.sluice.it.agent;

class Jetty12Ee8AgentPlainServletIT extends PlainServletScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE8;
  }
}
