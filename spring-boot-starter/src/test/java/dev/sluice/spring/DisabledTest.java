package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LiveLimiter;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

/** {@code sluice.enabled=false}: the same application, limited by nothing. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "sluice.enabled=false")
class DisabledTest {
  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  @Test
  void nothingIsRegisteredAndNothingLimited() throws Exception {
    assertThat(context.getBeanNamesForType(LiveLimiter.class)).isEmpty();
    Client client = new Client(port);
    for (int i = 1; i <= 5; i++) {
      HttpResponse<String> response = client.get("/api/a", "10.2.0.1");
      assertThat(response.statusCode()).as("request %d", i).isEqualTo(200);
      assertThat(Client.header(response, Client.LIMIT)).isNull();
    }
  }
}
