package dev.sluice.it.browser;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code GET <base>/status} (its shape is in the status page's brief and
 * docs/operations.md), made up and changed by the test: three rules, a Redis store with two
 * masters, and a minute of flat history in which one rule is retired and another appears.
 */
final class CannedStatus {
  static final String VERSION = "3f2a9c0d1e2b";

  final long start = System.currentTimeMillis();
  private final Map<String, JsonObject> rules = new LinkedHashMap<>();
  private final JsonArray history = new JsonArray();
  // Rules denying steadily: rule id -> {since (epoch ms), denials per second}.
  private final Map<String, long[]> flows = new HashMap<>();
  private boolean memory;
  private boolean unchanged;
  private String problem;

  CannedStatus(String hostileClient) {
    add(rule("login", "enforce", 120, 7, 0, 3, 1, 4, 1_000, 2), client(hostileClient, 5, 1));
    rules.get("login").getAsJsonArray("topLimited").add(client("203.0.113.9", 2, 0));
    add(rule("api", "enforce", 4321, 12, 0, 0, 0, 0, 0, 0), client("key:abc", 12, 2));
    rules.get("api").addProperty("consistency", "local_first");
    rules.get("api").addProperty("syncMillis", 100);
    add(rule("search", "shadow", 50, 0, 9, 0, 0, 0, 0, 0), null);
    rules.get("search").addProperty("enforcesAt", start + 600_000); // on trial for ten minutes
    for (int ago = 6; ago >= 1; ago--) {
      JsonObject counters = new JsonObject();
      if (ago > 3) {
        counters.add("old", sampled(rule("old", "enforce", 10, 3, 0, 0, 0, 0, 0, 0)));
      }
      for (JsonObject rule : rules.values()) {
        if (ago <= 3 || !rule.get("id").getAsString().equals("search")) {
          counters.add(rule.get("id").getAsString(), sampled(rule));
        }
      }
      JsonObject point = new JsonObject();
      point.addProperty("time", start - ago * 10_000L);
      point.add("rules", counters);
      history.add(point);
    }
  }

  synchronized void deny(String rule, long more) {
    JsonObject counters = rules.get(rule);
    counters.addProperty("denied", counters.get("denied").getAsLong() + more);
  }

  /**
   * A burst in the history, two points ago: {@code perSecond} denials a second on average over that
   * point's ten seconds and {@code peakPerSecond} in its busiest one, counted ever since.
   */
  synchronized void burstInHistory(String rule, long perSecond, double peakPerSecond) {
    long more = perSecond * 10;
    for (int i = history.size() - 2; i < history.size(); i++) {
      JsonObject point = history.get(i).getAsJsonObject().getAsJsonObject("rules");
      JsonObject counters = point.getAsJsonObject(rule);
      counters.addProperty("denied", counters.get("denied").getAsLong() + more);
    }
    JsonObject peak = new JsonObject();
    peak.addProperty("allowed", 0.0);
    peak.addProperty("denied", peakPerSecond);
    peak.addProperty("shadowDenied", 0.0);
    JsonObject burst = history.get(history.size() - 2).getAsJsonObject().getAsJsonObject("rules");
    burst.getAsJsonObject(rule).add("peakPerSecond", peak);
    deny(rule, more);
  }

  /** From now on the rule's denials grow by {@code perSecond} every second, as long as asked. */
  synchronized void denyEverySecond(String rule, long perSecond) {
    flows.put(rule, new long[] {System.currentTimeMillis(), perSecond});
  }

  /** As after a restart: the counter starts again from zero (and stops growing). */
  synchronized void resetDenied(String rule) {
    flows.remove(rule);
    rules.get(rule).addProperty("denied", 0);
  }

  /** A memory store from now on: no Redis, so no latency and no breakers. */
  synchronized void inMemory() {
    memory = true;
  }

  /** The last reload found the file as it was. */
  synchronized void reloadUnchanged() {
    unchanged = true;
  }

  synchronized void rejectReload(String why) {
    problem = why;
  }

  synchronized String json() {
    JsonObject status = new JsonObject();
    status.addProperty("time", System.currentTimeMillis());
    JsonObject config = new JsonObject();
    config.addProperty("version", VERSION);
    config.addProperty("rules", rules.size());
    config.addProperty("appliedAt", start - 3_600_000L);
    config.addProperty(
        "lastReload", problem != null ? "rejected" : unchanged ? "unchanged" : "applied");
    config.addProperty("lastReloadAt", start - 5_000L);
    config.add("problem", problem == null ? JsonNull.INSTANCE : new JsonPrimitive(problem));
    config.addProperty("identities", "hashed");
    status.add("config", config);
    status.add("store", memory ? memoryStore() : redisStore());
    JsonArray current = new JsonArray();
    for (JsonObject rule : rules.values()) {
      JsonObject now = rule.deepCopy();
      if (now.has("syncMillis")) {
        now.add("leases", leases(status.get("time").getAsLong()));
      }
      long[] flow = flows.get(rule.get("id").getAsString());
      if (flow != null) {
        long more = (System.currentTimeMillis() - flow[0]) * flow[1] / 1000;
        now.addProperty("denied", rule.get("denied").getAsLong() + more);
      }
      current.add(now);
    }
    status.add("rules", current);
    JsonObject past = new JsonObject();
    past.addProperty("intervalSeconds", 10);
    past.add("points", history.deepCopy());
    status.add("history", past);
    return new Gson().toJson(status);
  }

  /** A local-first rule's leases, last synced two seconds before {@code now}. */
  private static JsonObject leases(long now) {
    JsonObject leases = new JsonObject();
    leases.addProperty("count", 3);
    leases.addProperty("permitsHeld", 42);
    leases.addProperty("lastSyncAt", now - 2_000);
    leases.addProperty("leased", 500);
    leases.addProperty("spent", 450);
    leases.addProperty("givenBack", 6);
    leases.addProperty("unspent", 2);
    leases.addProperty("exact", 11);
    return leases;
  }

  private static JsonObject redisStore() {
    JsonObject store = store("redis", 2, 1234, 1.5, 420, 3100, 99);
    JsonObject breakers = store.getAsJsonObject("breakers");
    breakers.addProperty("10.0.0.1:6379", "closed");
    breakers.addProperty("10.0.0.2:6379", "open");
    return store;
  }

  private static JsonObject memoryStore() {
    return store("memory", 1, 0, 0.0, 0, 0, 0);
  }

  private static JsonObject store(
      String type, int fleet, long commands, double pipeline, long p50, long p99, long count) {
    JsonObject store = new JsonObject();
    store.addProperty("type", type);
    store.addProperty("shared", type.equals("redis"));
    store.addProperty("fleetSize", fleet);
    store.addProperty("commands", commands);
    store.addProperty("errors", 0);
    store.addProperty("meanPipelineCommands", pipeline);
    JsonObject latency = new JsonObject();
    latency.addProperty("p50", p50);
    latency.addProperty("p99", p99);
    latency.addProperty("count", count);
    store.add("latencyMicros", latency);
    store.add("breakers", new JsonObject());
    return store;
  }

  private void add(JsonObject rule, JsonObject limited) {
    if (limited != null) {
      rule.getAsJsonArray("topLimited").add(limited);
    }
    rules.put(rule.get("id").getAsString(), rule);
  }

  private static JsonObject rule(String id, String mode, long... counts) {
    JsonObject rule = new JsonObject();
    rule.addProperty("id", id);
    rule.addProperty("mode", mode);
    List<String> names =
        List.of(
            "allowed",
            "denied",
            "shadowDenied",
            "decidedLocally",
            "deniedLocally",
            "delayed",
            "delayMillis",
            "waiting");
    for (int i = 0; i < names.size(); i++) {
      rule.addProperty(names.get(i), counts[i]);
    }
    rule.add("topLimited", new JsonArray());
    return rule;
  }

  private static JsonObject sampled(JsonObject rule) {
    JsonObject sample = new JsonObject();
    for (String name : List.of("allowed", "denied", "shadowDenied")) {
      sample.add(name, rule.get(name));
    }
    return sample;
  }

  private static JsonObject client(String client, long denials, long maxOvercount) {
    JsonObject limited = new JsonObject();
    limited.addProperty("client", client);
    limited.addProperty("denials", denials);
    limited.addProperty("maxOvercount", maxOvercount);
    return limited;
  }
}
