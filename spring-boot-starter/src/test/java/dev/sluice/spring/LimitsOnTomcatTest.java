package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;

/** The starter alone limits an application on Tomcat, by the ratelimit.yaml on its class path. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LimitsOnTomcatTest {
  @LocalServerPort int port;
  @Autowired ServletWebServerApplicationContext context;

  @Test
  void theFourthRequestOfAClientIsRejectedWithTheRulesHeaders() throws Exception {
    assertThat(context.getWebServer()).isInstanceOf(TomcatWebServer.class);
    Client client = new Client(port);
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> allowed = client.get("/api/a", "10.1.0.1");
      assertThat(allowed.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(allowed.body()).isEqualTo("hello");
      assertThat(Client.header(allowed, Client.LIMIT)).isEqualTo("3");
      assertThat(Client.header(allowed, Client.REMAINING)).isEqualTo(String.valueOf(3 - i));
    }
    HttpResponse<String> rejected = client.get("/api/a", "10.1.0.1");
    assertThat(rejected.statusCode()).isEqualTo(429);
    assertThat(Client.header(rejected, "Retry-After")).isNotNull();
    assertThat(client.get("/api/a", "10.1.0.2").statusCode()).as("another client").isEqualTo(200);
    assertThat(client.get("/open", "10.1.0.1").statusCode()).as("a path of no rule").isEqualTo(200);
    assertThat(client.get("/actuator/sluice", "10.1.0.3").statusCode())
        .as("the endpoint, not exposed unless asked for, as Actuator's")
        .isEqualTo(404);
  }
}
