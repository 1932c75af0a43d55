package dev.sluice.spring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Requests to the application on {@code port} on loopback, as the client {@code X-Forwarded-For}. */
final class Client {
  static final String LIMIT = "X-RateLimit-Limit";
  static final String REMAINING = "X-RateLimit-Remaining";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;

  Client(int port) {
    this.port = port;
  }

  HttpResponse<String> get(String path, String clientIp) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("X-Forwarded-For", clientIp)
            .timeout(Duration.ofSeconds(10))
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  static String header(HttpResponse<?> response, String name) {
    return response.headers().firstValue(name).orElse(null);
  }
}
