package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint behind a real reverse proxy on the same host, the most common legacy
 * deployment: nginx on loopback in front of Tomcat 11 with the Filter. However the proxy is set up,
 * a client behind it must not reach the endpoint by looking local (docs/operations.md, "The admin
 * endpoint"). Refused requests must get what the app answers for a path it does not know.
 */
class Tomcat11BehindNginxIT {
  private static final String TOKEN = "nginx-it-token-0123456789";
  private static final String BEARER = "Bearer " + TOKEN;
  private static final String RULES =
      "rules:\n  - { id: api, match: { path: /api/** }, key: ip, limit: 1000, window: 1m }\n";

  /** The sample ratelimit.yaml's admin section, its token set. */
  private static final String SAMPLE_ADMIN =
      "admin:\n  path: /_sluice\n  allow: [127.0.0.1/32, \"::1/128\"]\n  token: " + TOKEN + "\n";

  /** Where an internet client believes it is. */
  private static final String PUBLIC_HOST = "shop.example.com";

  @Test
  void aProxyThatForwardsIsNoCallerEvenWithTheToken() throws Exception {
    try (Stack stack = Stack.start(SAMPLE_ADMIN + RULES)) {
      int proxy = stack.nginx.port("forwarding");
      assertLooksUnknown(proxy, PUBLIC_HOST, BEARER);
      assertLooksUnknown(proxy, "127.0.0.1", BEARER);
      assertLooksUnknown(proxy, PUBLIC_HOST, null);
      assertAnswered(ask(stack.tomcat, "/_sluice/status", "127.0.0.1:" + stack.tomcat, BEARER));
    }
  }

  @Test
  void aProxyThatWritesNoHeaderPassesTheTokenHolderOnly() throws Exception {
    try (Stack stack = Stack.start(SAMPLE_ADMIN + RULES)) {
      int proxy = stack.nginx.port("bare");
      assertLooksUnknown(proxy, PUBLIC_HOST, null);
      assertAnswered(ask(proxy, "/_sluice/status", PUBLIC_HOST, BEARER));
    }
  }

  @Test
  void aSidecarIsNoCallerForTheHostItPassesOn() throws Exception {
    // allow left out: all of 127.0.0.0/8, the sidecar's 127.0.0.6 included.
    try (Stack stack = Stack.start("admin: { token: " + TOKEN + " }\n" + RULES)) {
      int sidecar = stack.nginx.port("sidecar");
      assertLooksUnknown(sidecar, PUBLIC_HOST, BEARER);
      // Asked for this host's name, it gets in with the token: from 127.0.0.6, in allow.
      Answer explain = ask(sidecar, "/_sluice/explain?path=/api/x", "127.0.0.1", BEARER);
      assertThat(explain.status()).isEqualTo(200);
      assertThat(explain.body()).contains("\"ip\":\"127.0.0.6\"");
    }
  }

  @Test
  void aPageLedHereByDnsRebindingIsRefused() throws Exception {
    try (Stack stack = Stack.start(SAMPLE_ADMIN + RULES)) {
      assertLooksUnknown(stack.tomcat, "rebind.attacker.example:" + stack.tomcat, BEARER);
      assertAnswered(ask(stack.tomcat, "/_sluice/status", "localhost:" + stack.tomcat, BEARER));
    }
  }

  @Test
  void aTrustedProxyThatNamesNoClientIsNoCaller() throws Exception {
    String trusting = "client_ip: { trusted_proxies: [127.0.0.1/32, \"::1/128\"] }\n";
    try (Stack stack = Stack.start(trusting + SAMPLE_ADMIN + RULES)) {
      // nginx names the test client, on loopback too: a trusted hop, so still nobody.
      assertLooksUnknown(stack.nginx.port("forwarding"), "127.0.0.1", BEARER);
      assertLooksUnknown(stack.nginx.port("bare"), PUBLIC_HOST, BEARER);
    }
  }

  @Test
  void theSampleAdminSectionOfOldWithoutATokenOpensNothing() throws Exception {
    String old = "admin:\n  path: /_sluice\n  allow: [127.0.0.1/32, \"::1/128\"]\n";
    try (Stack stack = Stack.start(old + RULES)) {
      assertLooksUnknown(stack.nginx.port("bare"), PUBLIC_HOST, null);
      assertLooksUnknown(stack.nginx.port("forwarding"), PUBLIC_HOST, null);
    }
  }

  /** Tomcat with the Filter reading {@code yaml}, and nginx in front of it three ways. */
  private static final class Stack implements AutoCloseable {
    final Deployment deployment;
    final int tomcat;
    final Nginx nginx;

    private Stack(Deployment deployment, Nginx nginx) {
      this.deployment = deployment;
      this.tomcat = deployment.port();
      this.nginx = nginx;
    }

    static Stack start(String yaml) throws Exception {
      Deployment deployment = Deployment.start(new Tomcat11(), yaml);
      try {
        String upstream = "      proxy_pass http://127.0.0.1:" + deployment.port() + ";\n";
        return new Stack(
            deployment,
            Nginx.start(
                Map.of(
                    // The usual tutorial block: the client named, its Host passed on.
                    "forwarding",
                    upstream
                        + "      proxy_set_header Host $host;\n"
                        + "      proxy_set_header X-Real-IP $remote_addr;\n"
                        + "      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
                        + "      proxy_set_header X-Forwarded-Proto $scheme;",
                    // proxy_pass alone: Host names the upstream, no forwarding header at all.
                    "bare",
                    upstream,
                    // A mesh sidecar's inbound hop: from 127.0.0.6, the client's Host passed on.
                    "sidecar",
                    upstream
                        + "      proxy_bind 127.0.0.6;\n"
                        + "      proxy_set_header Host $host;")));
      } catch (Exception e) {
        deployment.stop();
        throw e;
      }
    }

    @Override
    public void close() throws Exception {
      try {
        nginx.close();
      } finally {
        deployment.stop();
      }
    }
  }

  private record Answer(int status, String body) {}

  /**
   * GETs {@code path} from {@code port} on loopback as HTTP/1.0 (answered whole, never chunked),
   * naming {@code host}, with that {@code authorization} unless null.
   */
  private static Answer ask(int port, String path, String host, String authorization)
      throws Exception {
    String request =
        "GET "
            + path
            + " HTTP/1.0\r\nHost: "
            + host
            + "\r\n"
            + (authorization == null ? "" : "Authorization: " + authorization + "\r\n")
            + "\r\n";
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      in.transferTo(bytes);
      String response = bytes.toString(StandardCharsets.UTF_8);
      int end = response.indexOf("\r\n\r\n");
      assertThat(end).as("a whole response from port %d: %s", port, response).isPositive();
      return new Answer(
          Integer.parseInt(response.substring(response.indexOf(' ') + 1).substring(0, 3)),
          response.substring(end + 4));
    }
  }

  private static void assertAnswered(Answer answer) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).contains("\"rules\":[{\"id\":\"api\"");
  }

  /**
   * {@code /_sluice/status} through {@code port}, naming {@code host}, gets just what the app
   * answers for a path no rule or endpoint knows.
   */
  private static void assertLooksUnknown(int port, String host, String authorization)
      throws Exception {
    Answer refused = ask(port, "/_sluice/status", host, authorization);
    Answer unknown = ask(port, "/_nowhere/status", host, authorization);
    assertThat(unknown).as("the app's answer through %d", port).isEqualTo(new Answer(200, "hello"));
    assertThat(refused.status())
        .as("status through %d for %s", port, host)
        .isEqualTo(unknown.status());
    assertThat(refused.body().replace("_sluice", "_nowhere"))
        .as("body through %d for %s", port, host)
        .isEqualTo(unknown.body());
    assertThat(refused.body()).doesNotContain("\"rules\"");
  }
}
