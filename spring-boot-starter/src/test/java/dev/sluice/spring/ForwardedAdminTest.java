package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 28: forward headers on (Tomcat's RemoteIpValve, as Boot installs it for {@code
 * server.forward-headers-strategy=native} and by itself on Kubernetes), and an address of this host
 * among the valve's internal proxies, as a pod network's 10/8 is by default. A client there that
 * sends {@code X-Forwarded-For: 127.0.0.1} and {@code Host: localhost} reaches Sluice as 127.0.0.1,
 * the header taken away: it must not be taken for a caller on loopback. The server listens on that
 * address only (traffic to it stays on this machine); on a machine without one, on loopback, whose
 * 127/8 the valve trusts as well.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "server.forward-headers-strategy=native")
class ForwardedAdminTest {
  private static final InetAddress HOST = addressOfThisHost();
  private static final Path FILE = config();

  @LocalServerPort int port;

  /** The first IPv4 address of an interface of this machine other than loopback; else loopback. */
  private static InetAddress addressOfThisHost() {
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (nic.isUp() && !nic.isLoopback()) {
          for (InetAddress address : Collections.list(nic.getInetAddresses())) {
            if (address instanceof Inet4Address) {
              return address;
            }
          }
        }
      }
      return InetAddress.getLoopbackAddress();
    } catch (SocketException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The endpoint for loopback and this host's address, without a token. */
  private static Path config() {
    try {
      return Files.writeString(
          Files.createTempFile("sluice-forwarded", ".yaml"),
          "admin:\n"
              + "  allow: [127.0.0.0/8, \""
              + HOST.getHostAddress()
              + "/32\"]\n"
              + "  allow_without_token: true\n"
              + "rules: []\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    registry.add("sluice.config", FILE::toString);
    registry.add("server.address", HOST::getHostAddress);
    registry.add(
        "server.tomcat.remoteip.internal-proxies",
        () -> Pattern.quote(HOST.getHostAddress()) + "|127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
  }

  @AfterAll
  static void deleteFile() throws IOException {
    Files.deleteIfExists(FILE);
  }

  /** One request from this host's address, its head exactly as written; the status line. */
  private String get(String path, String... headerLines) throws IOException {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(HOST, 0));
      socket.connect(new InetSocketAddress(HOST, port), 5_000);
      socket.setSoTimeout(10_000);
      StringBuilder head = new StringBuilder("GET " + path + " HTTP/1.1\r\n");
      for (String line : headerLines) {
        head.append(line).append("\r\n");
      }
      head.append("Connection: close\r\n\r\n");
      socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.US_ASCII));
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      in.transferTo(response);
      return response.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void aClientThatForwardsForLoopbackGetsNoAdminAnswer(CapturedOutput output) throws Exception {
    String direct = get("/_sluice/status", "Host: localhost");
    assertThat(direct)
        .as("the same client, direct")
        .startsWith("HTTP/1.1 200")
        .contains("\"rules\"");

    String forwarded = get("/_sluice/status", "Host: localhost", "X-Forwarded-For: 127.0.0.1");
    assertThat(forwarded)
        .as("forwarded for loopback: what the app answers for a path it does not know")
        .startsWith("HTTP/1.1 404")
        .doesNotContain("\"rules\"");

    assertThat(output)
        .as("the starter's warning at start")
        .contains("Sluice: admin.allow_without_token is true while forward headers are on")
        .contains("server.forward-headers-strategy=native");
  }
}
