package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Sluice before Spring Security's chain, and its rules keyed by the user after it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SpringSecurityTest {
  @LocalServerPort int port;

  @Test
  void aClientOverItsLimitIsRejectedBeforeTheLoginIsAskedFor() throws Exception {
    Client client = new Client(port);
    for (int i = 1; i <= 2; i++) {
      assertThat(client.get("/secure/s", "10.8.0.1").statusCode())
          .as("request %d: let through by Sluice, refused by the login", i)
          .isEqualTo(401);
    }
    assertThat(client.get("/secure/s", "10.8.0.1").statusCode()).isEqualTo(429);
  }

  @Test
  void eachUserHasTheirOwnLimitWhereverTheyComeFrom() throws Exception {
    Client client = new Client(port);
    for (int i = 1; i <= 3; i++) {
      assertThat(client.get("/secure/u", "10.8.1." + i, "alice").statusCode())
          .as("alice's request %d", i)
          .isEqualTo(200);
    }
    assertThat(client.get("/secure/u", "10.8.1.4", "alice").statusCode())
        .as("alice's fourth, from a fourth address")
        .isEqualTo(429);
    assertThat(client.get("/secure/u", "10.8.1.5", "bob").statusCode()).isEqualTo(200);
  }
}
