package dev.sluice.it.agent.boot;

/**
 * The agent in a Spring Boot 2.7 executable jar (it-tests/apps/boot27-app, the example app's
 * controller without its login): javax.servlet on embedded Tomcat 9, every library nested in
 * BOOT-INF/lib and loaded by Boot 2's LaunchedURLClassLoader (org.springframework.boot.loader), not
 * Boot 3's.
 */
class Boot27AgentIT extends LimitedBootApp {
  @Override
  String jarProperty() {
    return "sluice.it.boot27Jar";
  }
}
