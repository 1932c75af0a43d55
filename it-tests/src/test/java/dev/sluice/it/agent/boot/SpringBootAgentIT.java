package dev.sluice.it.agent.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.PerUserChecks;
import org.junit.jupiter.api.Test;

/**
 * The agent in a Spring Boot 3 executable jar on embedded Tomcat 10.1 (examples/spring-boot-app),
 * which knows nothing of Sluice. Boot loads Tomcat and Spring from jars nested in BOOT-INF/lib
 * through its own class loader, not the system one: a 429 from its embedded Tomcat shows the agent
 * found the servlet API there and hooked the container's filter chain ahead of Spring's
 * DispatcherServlet. The app logs its users in itself (Spring Security, HTTP Basic): a rule keyed
 * by the user is decided when the request reaches the DispatcherServlet, once Spring Security has
 * set the user.
 */
class SpringBootAgentIT extends LimitedBootApp {
  @Override
  String jarProperty() {
    return "sluice.it.springBootJar";
  }

  @Override
  String moreRules() {
    return PerUserChecks.RULE;
  }

  @Test
  void eachUserLoggedInByTheAppHasALimitOfItsOwn() throws Exception {
    PerUserChecks.assertEachUserHasALimitOfTheirOwn(http, "10.7.2.1");
    assertThat(http.get("/api/me", "10.7.2.1").statusCode())
        .as("no user: the app's login answers, and the rule is not reached")
        .isEqualTo(401);
  }
}
