package dev.sluice.it.agent;

class Jetty12Ee10AgentPlainServletIT extends PlainServletScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.JETTY_12_EE10;
  }
}
