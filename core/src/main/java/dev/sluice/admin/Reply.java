package dev.sluice.admin;

import dev.sluice.http.StatusTitles;
import dev.sluice.support.JsonWriter;
import java.util.function.Consumer;

/** What the endpoint's {@code /rules} answers: a status, a body and, for a version, its ETag. */
public final class Reply {
  /** RFC 9457's media type, which every refusal of {@code /rules} is sent as. */
  public static final String PROBLEM = "application/problem+json";

  final int status;
  final String contentType;
  final String body;
  final String etag;
  private final String detail;

  private Reply(int status, String contentType, String body, String etag, String detail) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    this.etag = etag;
    this.detail = detail;
  }

  /** A body of {@code contentType}; {@code etag} (quoted) names the version it is or made. */
  public static Reply of(int status, String contentType, String body, String etag) {
    return new Reply(status, contentType, body, etag, null);
  }

  /** An RFC 9457 problem of type {@code about:blank}: the status, its title and {@code detail}. */
  public static Reply problem(int status, String detail) {
    return problem(status, detail, null, json -> {});
  }

  /**
   * A problem as {@link #problem(int, String)}, with {@code etag} (null for none) and members of
   * its own that {@code more} writes.
   */
  public static Reply problem(int status, String detail, String etag, Consumer<JsonWriter> more) {
    JsonWriter json = new JsonWriter().beginObject();
    json.name("type").value("about:blank");
    json.name("title").value(StatusTitles.of(status));
    json.name("status").value(status);
    json.name("detail").value(detail);
    more.accept(json);
    return new Reply(status, PROBLEM, json.endObject().toString(), etag, detail);
  }

  public int status() {
    return status;
  }

  public String body() {
    return body;
  }

  /** What a problem says; null for any other reply. */
  public String detail() {
    return detail;
  }

  /** The quoted entity tag, or null. */
  public String etag() {
    return etag;
  }
}
