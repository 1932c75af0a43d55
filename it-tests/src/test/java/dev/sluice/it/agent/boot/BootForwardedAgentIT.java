package dev.sluice.it.agent.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.Settings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 28: the agent in a Spring Boot 3 jar (examples/spring-boot-app) with {@code
 * server.forward-headers-strategy=native}: Tomcat's RemoteIpValve, whose internal proxies are here
 * 127.0.0.2 alone (a pod network's 10/8 by default). A client at 127.0.0.2 that sends {@code
 * X-Forwarded-For: 127.0.0.1} and {@code Host: localhost} reaches the agent as 127.0.0.1, the
 * header taken away and the request marked forwarded: no loopback caller of the admin endpoint. A
 * client at 127.0.0.1, no proxy of the valve's, is still answered. All on loopback.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BootForwardedAgentIT {
  private Path config;
  private BootJar app;

  @BeforeAll
  void start() throws Exception {
    config = Files.createTempFile("sluice-boot-forwarded", ".yaml");
    Files.writeString(config, "admin: { allow_without_token: true }\nrules: []\n");
    app =
        BootJar.start(
            "sluice.it.springBootJar",
            List.of("-javaagent:" + Settings.agentJar() + "=config=" + config),
            List.of(
                "--server.forward-headers-strategy=native",
                "--server.tomcat.remoteip.internal-proxies=127\\.0\\.0\\.2"));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (app != null) {
        app.stop();
      }
    } finally {
      Files.deleteIfExists(config);
    }
  }

  /** One request from {@code from} to the app on 127.0.0.1, its head as written; the response. */
  private String get(String from, String... headerLines) throws IOException {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
      socket.connect(new InetSocketAddress("127.0.0.1", app.port()), 5_000);
      socket.setSoTimeout(10_000);
      StringBuilder head = new StringBuilder("GET /_sluice/status HTTP/1.1\r\n");
      for (String line : headerLines) {
        head.append(line).append("\r\n");
      }
      head.append("Connection: close\r\n\r\n");
      socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.US_ASCII));
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      socket.getInputStream().transferTo(response);
      return response.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void aClientThatForwardsForLoopbackGetsNoAdminAnswer() throws Exception {
    assertThat(get("127.0.0.1", "Host: localhost"))
        .as("a caller on loopback, direct")
        .startsWith("HTTP/1.1 200")
        .contains("\"rules\"");

    assertThat(get("127.0.0.2", "Host: localhost", "X-Forwarded-For: 127.0.0.1"))
        .as("forwarded for loopback by one of the valve's proxies: what the app answers")
        .doesNotStartWith("HTTP/1.1 200")
        .doesNotContain("\"rules\"");
  }
}
