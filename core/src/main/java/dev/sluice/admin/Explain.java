package dev.sluice.admin;

import dev.sluice.core.Explanation;
import dev.sluice.core.Limiter;
import dev.sluice.core.RequestView;
import dev.sluice.http.Exchange;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.support.JsonWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET <admin>/explain?method=POST&path=/login&ip=203.0.113.9&header.X-API-Key=k&user=u}:
 * which rules a request like that would match, the identity each would count it under, and what
 * each would decide now, taking nothing from any limit. {@code ip} is the address of the peer, as
 * the container would report it: give {@code header.X-Forwarded-For} too to ask about a client
 * behind a trusted proxy. {@code method} defaults to GET and {@code ip} to the caller's own.
 */
final class Explain {
  static final String HEADER = "header.";

  private Explain() {}

  static void answer(Limiter limiter, Metrics metrics, Exchange exchange) throws IOException {
    Query query = new Query(exchange.queryString());
    String path = query.get("path", null);
    if (path == null || !path.startsWith("/")) {
      AdminEndpoint.error(exchange, 400, "give path=/the/request/path (and method, ip, header.X)");
      return;
    }
    Asked request = new Asked(query, path, exchange.remoteAddress());
    exchange.respond(
        200, AdminEndpoint.JSON, render(request, limiter.explain(request), metrics));
  }

  /**
   * Each rule's entry, an identity as the status page's top limited clients show it ({@code
   * shownAs}) and a rule's consistency and leases as the status page has them.
   */
  static String render(Asked request, Explanation explanation, Metrics metrics) {
    StoreStatus store = metrics.store();
    JsonWriter json = new JsonWriter().beginObject();
    json.name("request").beginObject();
    json.name("method").value(request.method());
    json.name("path").value(request.path());
    json.name("ip").value(request.remoteAddress());
    json.name("user").value(request.remoteUser());
    json.name("headers").beginObject();
    for (Map.Entry<String, List<String>> header : request.headers.entrySet()) {
      json.name(header.getKey()).value(header.getValue().get(0));
    }
    json.endObject().endObject();
    json.name("skipped").value(explanation.skipped());
    json.name("rules").beginArray();
    for (Explanation.Entry entry : explanation.entries()) {
      json.beginObject();
      json.name("id").value(entry.ruleId());
      json.name("mode").value(entry.shadow() ? "shadow" : "enforce");
      json.name("matches").value(entry.matches());
      if (entry.matches()) {
        json.name("identity").value(entry.identity());
        String identity = entry.identity();
        json.name("shownAs").value(identity == null ? null : metrics.shown(identity));
        json.name("tier").value(entry.tier());
        json.name("limit").value(entry.limit());
        json.name("windowSeconds").value(entry.windowMicros() / 1e6);
        json.name("cost").value(entry.cost());
      }
      if (entry.matches() && entry.identity() != null) {
        if (entry.error() != null) {
          json.name("error").value(entry.error());
        } else {
          json.name("wouldAllow").value(entry.allowed());
          json.name("remainingAfter").value(entry.remaining());
          json.name("resetSeconds").value(entry.resetSeconds());
          json.name("retryAfterSeconds").value(entry.retryAfterSeconds());
          if (entry.delays()) {
            json.name("wouldWaitMillis").value(entry.waitMicros() / 1_000);
          }
        }
      }
      // Last, so that the fields before keep the places scripts and tests know them by.
      long sync = metrics.localFirstSyncMicros(entry.ruleId());
      StatusJson.consistency(json, sync, store, entry.ruleId());
      json.endObject();
    }
    return json.endArray().endObject().toString();
  }

  /** The request the query describes. */
  static final class Asked implements RequestView {
    private final String method;
    private final String path;
    private final String ip;
    private final String user;
    private final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    Asked(Query query, String path, String caller) {
      this.method = query.get("method", "GET").toUpperCase(Locale.ROOT);
      this.path = path;
      this.ip = query.get("ip", caller);
      this.user = query.get("user", null);
      for (Map.Entry<String, List<String>> parameter : query.all().entrySet()) {
        String name = parameter.getKey();
        if (name.regionMatches(true, 0, HEADER, 0, HEADER.length())
            && name.length() > HEADER.length()) {
          headers.put(name.substring(HEADER.length()), new ArrayList<>(parameter.getValue()));
        }
      }
    }

    @Override
    public String method() {
      return method;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public String remoteAddress() {
      return ip;
    }

    @Override
    public String header(String name) {
      List<String> values = headers.get(name);
      return values == null ? null : values.get(0);
    }

    @Override
    public List<String> headers(String name) {
      List<String> values = headers.get(name);
      return values == null ? Collections.<String>emptyList() : values;
    }

    @Override
    public String remoteUser() {
      return user;
    }
  }
}
