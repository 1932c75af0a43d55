package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.annotation.Import;

/** {@link HealthTest} on embedded Jetty, with a redis-server of its own. */
@Import(OnJettyTest.Jetty.class)
class HealthOnJettyTest extends HealthTest {
  @Autowired ServletWebServerApplicationContext context;

  @Test
  void runsOnJetty() {
    assertThat(context.getWebServer()).isInstanceOf(JettyWebServer.class);
  }
}
