package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** /actuator/sluice, once exposed as any Actuator endpoint is: what /_sluice/status shows. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "management.endpoints.web.exposure.include=sluice")
class EndpointTest {
  @LocalServerPort int port;

  @Test
  void theStatusOfTheRulesStoreAndConfig() throws Exception {
    Client client = new Client(port);
    for (int i = 1; i <= 4; i++) {
      client.get("/api/e", "10.5.0.1");
    }
    HttpResponse<String> response = client.get("/actuator/sluice", "10.5.0.2");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(Client.header(response, "Content-Type")).contains("json");
    JsonNode status = new ObjectMapper().readTree(response.body());
    assertThat(status.at("/config/rules").asInt()).isEqualTo(3);
    assertThat(status.at("/config/version").asText()).isNotEmpty();
    assertThat(status.at("/store/type").asText()).isEqualTo("memory");
    JsonNode rule = status.at("/rules/0");
    assertThat(rule.at("/id").asText()).isEqualTo("api");
    assertThat(rule.at("/allowed").asLong()).isEqualTo(3);
    assertThat(rule.at("/denied").asLong()).isEqualTo(1);
    assertThat(rule.at("/topLimited").size()).as("the client denied").isEqualTo(1);
  }
}
