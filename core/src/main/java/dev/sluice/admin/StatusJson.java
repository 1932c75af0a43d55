package dev.sluice.admin;

import dev.sluice.metrics.ConfigStatus;
import dev.sluice.metrics.Histogram;
import dev.sluice.metrics.LeaseStatus;
import dev.sluice.metrics.LimitedClient;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RuleStats;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.support.JsonWriter;
import java.util.List;
import java.util.Map;

/**
 * {@code GET <admin>/status}: what the metrics know, as one JSON document the status page and
 * scripts read. docs/operations.md describes its fields; they only ever grow.
 */
final class StatusJson {
  private StatusJson() {}

  static String render(
      Metrics metrics, List<RuleStats> stats, List<History.Point> history, long now) {
    JsonWriter json = new JsonWriter().beginObject().name("time").value(now);
    config(json, metrics.config(), metrics.rawIdentities());
    StoreStatus store = metrics.store();
    store(json, store);
    rules(json, metrics, store, stats);
    history(json, history);
    return json.endObject().toString();
  }

  private static void config(JsonWriter json, ConfigStatus config, boolean rawIdentities) {
    json.name("config").beginObject();
    json.name("version").value(config.version());
    json.name("rules").value(config.rules());
    json.name("appliedAt").value(config.appliedAtMillis());
    json.name("lastReload")
        .value(config.lastReload() == null ? "none" : config.lastReload().toString());
    json.name("lastReloadAt").value(config.lastReloadAtMillis());
    json.name("problem").value(config.problem());
    json.name("identities").value(rawIdentities ? "raw" : "hashed");
    json.endObject();
  }

  private static void store(JsonWriter json, StoreStatus store) {
    json.name("store").beginObject();
    json.name("type").value(store.type());
    json.name("shared").value(store.isShared());
    json.name("fleetSize").value(store.fleetSize());
    json.name("commands").value(store.commands());
    json.name("errors").value(store.errors());
    json.name("meanPipelineCommands").value(store.meanPipelineCommands());
    Histogram recent = store.recentRoundTrips();
    json.name("latencyMicros").beginObject();
    json.name("p50").value(micros(recent.quantileSeconds(0.5)));
    json.name("p99").value(micros(recent.quantileSeconds(0.99)));
    json.name("count").value(recent.count());
    json.endObject();
    json.name("breakers").beginObject();
    for (Map.Entry<String, String> breaker : store.breakers().entrySet()) {
      json.name(breaker.getKey()).value(breaker.getValue());
    }
    json.endObject().endObject();
  }

  private static void rules(
      JsonWriter json, Metrics metrics, StoreStatus store, List<RuleStats> stats) {
    Map<String, Long> trials = metrics.trials();
    json.name("rules").beginArray();
    for (RuleStats rule : stats) {
      json.beginObject();
      json.name("id").value(rule.ruleId());
      json.name("mode").value(metrics.inShadow(rule.ruleId()) ? "shadow" : "enforce");
      json.name("allowed").value(rule.allowed());
      json.name("denied").value(rule.denied());
      json.name("shadowDenied").value(rule.shadowDenied());
      json.name("decidedLocally").value(rule.decidedLocally());
      json.name("deniedLocally").value(rule.deniedLocally());
      json.name("delayed").value(rule.delayed());
      json.name("delayMillis").value(rule.delayMicros() / 1_000);
      json.name("waiting").value(rule.waiting());
      consistency(json, metrics.localFirstSyncMicros(rule.ruleId()), store, rule.ruleId());
      json.name("topLimited").beginArray();
      for (LimitedClient client : rule.topLimited()) {
        json.beginObject();
        json.name("client").value(client.getClient());
        json.name("denials").value(client.getDenials());
        json.name("maxOvercount").value(client.getMaxOvercount());
        json.endObject();
      }
      json.endArray().endObject();
    }
    json.endArray();
  }

  /**
   * A rule's consistency, and for a local-first one in a shared store its leases here: the local
   * allowance, the last sync, what was leased, spent, given back and left unspent, and how many
   * permits were decided otherwise.
   */
  static void consistency(JsonWriter json, long syncMicros, StoreStatus store, String ruleId) {
    boolean localFirst = syncMicros > 0 && store.isShared();
    json.name("consistency").value(localFirst ? "local_first" : "exact");
    if (!localFirst) {
      return;
    }
    json.name("syncMillis").value(syncMicros / 1_000);
    LeaseStatus leases = store.leases().get(ruleId);
    if (leases == null) {
      return;
    }
    json.name("leases").beginObject();
    json.name("count").value(leases.leases());
    json.name("permitsHeld").value(leases.permitsHeld());
    json.name("lastSyncAt").value(leases.lastSyncMillis());
    json.name("leased").value(leases.leased());
    json.name("spent").value(leases.spent());
    json.name("givenBack").value(leases.givenBack());
    json.name("unspent").value(leases.unspent());
    json.name("exact").value(leases.exact());
    json.endObject();
  }

  private static void history(JsonWriter json, List<History.Point> points) {
    json.name("history").beginObject();
    json.name("intervalSeconds").value(History.INTERVAL_SECONDS);
    json.name("points").beginArray();
    for (History.Point point : points) {
      json.beginObject().name("time").value(point.millis).name("rules").beginObject();
      for (Map.Entry<String, long[]> rule : point.counts.entrySet()) {
        long[] counts = rule.getValue();
        json.name(rule.getKey()).beginObject();
        json.name("allowed").value(counts[0]);
        json.name("denied").value(counts[1]);
        json.name("shadowDenied").value(counts[2]);
        double[] peak = point.peaksPerSecond.get(rule.getKey());
        if (peak != null) {
          json.name("peakPerSecond").beginObject();
          json.name("allowed").value(hundredths(peak[0]));
          json.name("denied").value(hundredths(peak[1]));
          json.name("shadowDenied").value(hundredths(peak[2]));
          json.endObject();
        }
        json.endObject();
      }
      json.endObject().endObject();
    }
    json.endArray().endObject();
  }

  private static double hundredths(double rate) {
    return Math.round(rate * 100) / 100.0;
  }

  private static long micros(double seconds) {
    return Math.round(seconds * 1e6);
  }
}
