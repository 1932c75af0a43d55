package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.annotation.Bean;

/** The same starter on embedded Jetty: limits, headers, the endpoint and the meters. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "management.endpoints.web.exposure.include=sluice")
class OnJettyTest {
  @LocalServerPort int port;
  @Autowired ServletWebServerApplicationContext context;
  @Autowired MeterRegistry registry;

  /** Jetty instead of Tomcat, which is on the class path too. */
  @TestConfiguration
  static class Jetty {
    @Bean
    JettyServletWebServerFactory jetty() {
      return new JettyServletWebServerFactory();
    }
  }

  @Test
  void limitsCountsAndReports() throws Exception {
    assertThat(context.getWebServer()).isInstanceOf(JettyWebServer.class);
    Client client = new Client(port);
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = client.get("/api/j", "10.7.0.1");
      assertThat(allowed.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(Client.header(allowed, Client.REMAINING)).isEqualTo(String.valueOf(3 - i));
    }
    assertThat(client.get("/api/j", "10.7.0.1").statusCode()).isEqualTo(429);
    double denied =
        registry
            .get("sluice.decisions")
            .tags("rule", "api", "outcome", "denied")
            .functionCounter()
            .count();
    assertThat(denied).isEqualTo(1);
    HttpResponse<String> status = client.get("/actuator/sluice", "10.7.0.2");
    assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
    assertThat(status.body()).contains("\"allowed\":3", "\"denied\":1");
  }
}
