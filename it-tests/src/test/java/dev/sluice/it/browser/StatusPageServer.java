package dev.sluice.it.browser;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.admin.HtmlPage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Stands in for Sluice's admin endpoint at {@link #BASE}: the status page with the Content Security
 * Policy the endpoint serves it with, at {@code /_sluice} and {@code /_sluice/}, and the canned
 * status at {@code /_sluice/status}. Like the endpoint, it wants a bearer token on every request,
 * which shows that the browser sends the test's header with the page's fetches too.
 */
final class StatusPageServer implements AutoCloseable {
  static final String BASE = "/_sluice";

  private final HttpServer server;
  private final CannedStatus status;
  private final String authorization;
  private final String page;
  private final String policy;
  private volatile int failWith;

  StatusPageServer(CannedStatus status, String token) throws IOException {
    this.status = status;
    this.authorization = "Bearer " + token;
    HtmlPage served = HtmlPage.status();
    this.page = served.html();
    this.policy = served.contentSecurityPolicy();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(BASE, this::handle);
    server.start();
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** From now on {@code /status} answers with this HTTP status; 0 answers normally again. */
  void failWith(int httpStatus) {
    failWith = httpStatus;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try {
      String path = exchange.getRequestURI().getPath();
      if (!authorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        send(exchange, 401, "text/plain", "a bearer token is required");
      } else if (path.equals(BASE) || path.equals(BASE + "/")) {
        exchange.getResponseHeaders().set("Content-Security-Policy", policy);
        send(exchange, 200, "text/html", page);
      } else if (!path.equals(BASE + "/status")) {
        send(exchange, 404, "text/plain", "no such page");
      } else if (failWith != 0) {
        send(exchange, failWith, "text/plain", "failing on purpose");
      } else {
        send(exchange, 200, "application/json", status.json());
      }
    } finally {
      exchange.close();
    }
  }

  private static void send(HttpExchange exchange, int code, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
