package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.annotation.Import;

/** {@link DisabledTest} on embedded Jetty. */
@Import(OnJettyTest.Jetty.class)
class DisabledOnJettyTest extends DisabledTest {
  @Autowired ServletWebServerApplicationContext webContext;

  @Test
  void runsOnJetty() {
    assertThat(webContext.getWebServer()).isInstanceOf(JettyWebServer.class);
  }
}
