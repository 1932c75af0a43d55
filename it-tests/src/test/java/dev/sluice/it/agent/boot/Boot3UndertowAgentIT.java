package dev.sluice.it.agent.boot;

/**
 * The agent in a Spring Boot 3 executable jar on Undertow in place of Tomcat
 * (it-tests/apps/boot3-undertow-app, the example app's controller without its login,
 * spring-boot-starter-undertow): the filter chain the agent hooks is Undertow's, loaded from jars
 * nested in BOOT-INF/lib by Boot's class loader, with no JBoss Modules around it as in WildFly.
 */
class Boot3UndertowAgentIT extends LimitedBootApp {
  @Override
  String jarProperty() {
    return "sluice.it.boot3UndertowJar";
  }
}
