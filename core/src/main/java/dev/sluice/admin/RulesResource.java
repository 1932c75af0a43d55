package dev.sluice.admin;

import dev.sluice.http.Exchange;
import dev.sluice.support.Bounded;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * {@code <admin>/rules} and {@code <admin>/rules/{id}}: the HTTP of the rules API. Reads are
 * answered like the endpoint's other resources; a write ({@code PUT}, {@code POST}, {@code DELETE})
 * reaches here only with a write credential, and must name the version it is based on ({@code
 * If-Match}, else 428). What a write does is the {@link Rulebook}'s.
 */
final class RulesResource {
  static final String RULES = "rules";
  private static final String ONE = RULES + "/";

  /** The most a body may be: what Sluice reads of a file (ConfigSource.MAX_BYTES). */
  static final int MAX_BODY = 1 << 20;

  private RulesResource() {}

  /**
   * Whether {@code method} on {@code resource} is a write, which only a write credential may ask.
   */
  static boolean isWrite(String resource, String method) {
    return (resource.equals(RULES) || resource.startsWith(ONE))
        && ("PUT".equals(method) || "POST".equals(method) || "DELETE".equals(method));
  }

  static boolean isRules(String resource) {
    return resource.equals(RULES) || resource.startsWith(ONE);
  }

  /** Answers a request for {@code resource}; {@code who} names the write credential, or is null. */
  static void answer(Rulebook rulebook, String resource, String who, String from, Exchange exchange)
      throws IOException {
    String id = resource.equals(RULES) ? null : resource.substring(ONE.length());
    String method = exchange.method();
    Reply reply;
    if (who == null && id == null) {
      if ("GET".equals(method) || "HEAD".equals(method)) {
        reply = rulebook.read();
      } else {
        exchange.setHeader("Allow", "GET, HEAD, PUT, POST");
        reply = Reply.problem(405, "GET or HEAD reads " + RULES + ", PUT or POST writes it");
      }
    } else if (who == null) {
      exchange.setHeader("Allow", "PUT, DELETE");
      reply = Reply.problem(405, "a rule is read in the document, GET " + RULES);
    } else {
      reply = write(rulebook, kindOf(method, id), id, who, from, exchange);
    }
    send(reply, exchange);
  }

  private static RulesWrite.Kind kindOf(String method, String id) {
    if ("DELETE".equals(method)) {
      return id == null ? null : RulesWrite.Kind.DELETE;
    }
    if ("POST".equals(method)) {
      return id == null ? RulesWrite.Kind.ADD : null;
    }
    return id == null ? RulesWrite.Kind.REPLACE : RulesWrite.Kind.UPDATE;
  }

  private static Reply write(
      Rulebook rulebook,
      RulesWrite.Kind kind,
      String id,
      String who,
      String from,
      Exchange exchange)
      throws IOException {
    if (kind == null) {
      exchange.setHeader("Allow", id == null ? "GET, HEAD, PUT, POST" : "PUT, DELETE");
      return Reply.problem(405, "PUT or POST " + RULES + ", PUT or DELETE " + ONE + "{id}");
    }
    List<String> ifMatch = exchange.headers("If-Match");
    if (ifMatch.size() != 1 || ifMatch.get(0).trim().equals("*")) {
      return Reply.problem(
          428,
          "send If-Match with the ETag of the version this write is based on (GET "
              + RULES
              + " answers it): a write based on an older version than the one in force would"
              + " undo a change it never saw");
    }
    byte[] body =
        kind == RulesWrite.Kind.DELETE ? new byte[0] : Bounded.read(exchange.body(), MAX_BODY);
    if (body == null) {
      return Reply.problem(
          413, "the body is more than the " + MAX_BODY + " bytes Sluice reads of a file");
    }
    String type = exchange.header("Content-Type");
    try {
      body = BodyText.utf8(body, type);
    } catch (BodyText.Unreadable e) {
      return Reply.problem(400, e.getMessage() + "; nothing was changed");
    }
    if (type != null && type.toLowerCase(Locale.ROOT).trim().startsWith("application/json")) {
      body = JsonBody.asYaml(body);
    }
    String message = new Query(exchange.queryString()).get("message", "");
    return rulebook.write(
        new RulesWrite(kind, id, body, ifMatch.get(0).trim(), who, from, message));
  }

  private static void send(Reply reply, Exchange exchange) throws IOException {
    if (reply.etag != null) {
      exchange.setHeader("ETag", reply.etag);
    }
    exchange.respond(reply.status, reply.contentType, reply.body);
  }
}
