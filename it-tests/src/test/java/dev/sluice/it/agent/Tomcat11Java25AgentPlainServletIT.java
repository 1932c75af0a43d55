package dev.sluice.it.agent;

/** The agent on Java 25: its class files, Byte Buddy's reading of them, method handles. */
class Tomcat11Java25AgentPlainServletIT extends PlainServletScenario {
  @Override
  AgentContainer container() {
    return AgentContainer.TOMCAT_11;
  }

  @Override
  String java() {
    return Settings.java25();
  }
}
