package dev.sluice.spring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Requests to the application on {@code port} on loopback, as the client {@code X-Forwarded-For}.
 */
final class Client {
  static final String LIMIT = "X-RateLimit-Limit";
  static final String REMAINING = "X-RateLimit-Remaining";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;

  Client(int port) {
    this.port = port;
  }

  HttpResponse<String> get(String path, String clientIp) throws IOException, InterruptedException {
    return http.send(request(path, clientIp).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** As {@link #get(String, String)}, logged in as {@code user} (HTTP Basic). */
  HttpResponse<String> get(String path, String clientIp, String user)
      throws IOException, InterruptedException {
    String credentials = user + ":" + TestApp.PASSWORD;
    String basic = Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    HttpRequest request = request(path, clientIp).header("Authorization", "Basic " + basic).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String path, String clientIp) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("X-Forwarded-For", clientIp)
        .timeout(Duration.ofSeconds(10));
  }

  static String header(HttpResponse<?> response, String name) {
    return response.headers().firstValue(name).orElse(null);
  }
}
