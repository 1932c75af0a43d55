package dev.sluice.it.agent;

/** The agent on Java 25: its class files, Byte Buddy's reading of them, method handles. */
class Tomcat9Java25AgentAppFilterIT extends AppFilterScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_9;
  }

  @Override
  String java() {
    return Settings.java25();
  }
}
