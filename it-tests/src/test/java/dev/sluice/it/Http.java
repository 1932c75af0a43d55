package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Plain HTTP/1.1 over loopback. The container sees every request from 127.0.0.1, a trusted proxy in
 * the test configs, so {@code X-Forwarded-For} names the client: each scenario uses client
 * addresses of its own and never shares a bucket with another.
 */
public final class Http {
  public static final String LIMIT = "X-RateLimit-Limit";
  public static final String REMAINING = "X-RateLimit-Remaining";
  public static final String RESET = "X-RateLimit-Reset";
  public static final String RETRY_AFTER = "Retry-After";
  public static final String DELAY = "X-RateLimit-Delay-Ms";

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String base;

  public Http(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** The address of {@code rawPath} on the server, for a client other than this one. */
  public String url(String rawPath) {
    return base + rawPath;
  }

  /**
   * GETs {@code rawPath} exactly as written (no normalisation) on behalf of {@code clientIp}, with
   * {@code headers} as name, value, name, value...
   */
  public HttpResponse<String> get(String rawPath, String clientIp, String... headers)
      throws IOException, InterruptedException {
    return send("GET", rawPath, clientIp, headers);
  }

  /** As {@link #get}, with {@code method} and no body. */
  public HttpResponse<String> send(
      String method, String rawPath, String clientIp, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + rawPath))
            .header("X-Forwarded-For", clientIp)
            .timeout(Duration.ofSeconds(10))
            .method(method, HttpRequest.BodyPublishers.noBody());
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** As {@link #send}, with {@code body} in UTF-8 (none when null). */
  public HttpResponse<String> sendBody(
      String method, String rawPath, String clientIp, String body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + rawPath))
            .header("X-Forwarded-For", clientIp)
            .timeout(Duration.ofSeconds(10))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** How many requests the app has served so far. */
  public int served() throws IOException, InterruptedException {
    HttpResponse<String> response = get("/count", "10.255.255.255");
    assertThat(response.statusCode()).as("GET /count").isEqualTo(200);
    return Integer.parseInt(response.body().trim());
  }

  /** How many requests the app's own filter (MarkFilter) has run for so far. */
  public int filtered() throws IOException, InterruptedException {
    return (int) number(get("/count", "10.255.255.255"), "X-Filtered");
  }

  /** A header that must be there, as a whole number. */
  public static long number(HttpResponse<?> response, String name) {
    String value = response.headers().firstValue(name).orElse(null);
    assertThat(value).as(name + " of " + response.uri()).isNotNull().matches("[0-9]+");
    return Long.parseLong(value);
  }

  /**
   * A body sent whole with its length first (Content-Length: its UTF-8 bytes), not in chunks: what
   * a client that reads a 429 needs, and what clients that cannot stream expect.
   */
  public static void assertSentWhole(HttpResponse<String> response) {
    assertThat(response.headers().firstValue("Transfer-Encoding"))
        .as("Transfer-Encoding")
        .isEmpty();
    assertThat(number(response, "Content-Length"))
        .isEqualTo(response.body().getBytes(StandardCharsets.UTF_8).length);
  }

  /** Checks a 429 in full and returns its Retry-After. */
  public static long assertRejected(HttpResponse<String> response, String ruleId) {
    assertThat(response.statusCode()).isEqualTo(429);
    assertSentWhole(response);
    long retryAfter = number(response, RETRY_AFTER);
    assertThat(retryAfter).isGreaterThanOrEqualTo(1);
    number(response, LIMIT);
    number(response, REMAINING);
    number(response, RESET);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(
            type ->
                assertThat(type.split(";")[0].trim()).isEqualToIgnoringCase("application/json"));
    assertThat(response.body())
        .isEqualTo(
            "{\"error\":\"rate_limited\",\"rule\":\""
                + ruleId
                + "\",\"retryAfterSeconds\":"
                + retryAfter
                + "}");
    return retryAfter;
  }
}
