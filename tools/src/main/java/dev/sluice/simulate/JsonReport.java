package dev.sluice.simulate;

import dev.sluice.simulate.RuleTally.Seen;
import dev.sluice.support.JsonWriter;
import java.io.PrintStream;

/**
 * A replay's report for machines: the same figures as {@link TextReport}, as one JSON object on one
 * line (pipe it to {@code jq}). Shares are percentages with one decimal.
 */
final class JsonReport {
  private JsonReport() {}

  static void print(ReplayReport report, PrintStream out) {
    JsonWriter json = new JsonWriter().beginObject();
    json.name("rulesFile").value(report.rulesFile);
    json.name("logFile").value(report.logFile);
    json.name("format").value(report.format);
    json.name("store").beginObject();
    json.name("file").value(report.fileStore);
    json.name("replayed").value("memory");
    json.name("fleetSize").value(1);
    json.endObject();
    json.name("enabled").value(report.enabled);
    json.name("rulesFromRedis").value(report.rulesFromRedis);
    json.name("notLogged").beginArray();
    for (String name : report.notLogged) {
      json.value(name);
    }
    json.endArray();
    json.name("rules").beginArray();
    for (RuleTally tally : report.replay.tallies()) {
      rule(json, report, tally);
    }
    json.endArray();
    totals(json, report);
    out.println(json.endObject());
  }

  private static void rule(JsonWriter json, ReplayReport report, RuleTally tally) {
    json.beginObject();
    json.name("id").value(tally.rule.id());
    json.name("rule").value(ReplayReport.describe(tally.rule));
    json.name("shadow").value(tally.rule.shadow());
    json.name("status").value(tally.rule.response().status());
    json.name("matched").value(tally.matched);
    json.name("identities").value(tally.identities());
    json.name("wouldDeny").value(tally.denied);
    json.name("wouldDenyPercent").value(ReplayReport.percent(tally.denied, tally.matched));
    if (tally.rule.delay() != null) {
      json.name("wouldDelay").value(tally.delayed);
      json.name("wouldDelayMeanMillis").value(tally.meanDelayMillis());
    }
    json.name("peak");
    Seen peak = report.replay.peak(tally);
    if (peak == null) {
      json.value((String) null);
    } else {
      json.beginObject();
      json.name("identity").value(peak.identity);
      json.name("perSecond").value(peak.peak);
      json.endObject();
    }
    json.name("top").beginArray();
    for (Seen seen : report.replay.top(tally, report.top)) {
      json.beginObject();
      json.name("identity").value(seen.identity);
      json.name("wouldDeny").value(seen.denied);
      json.name("requests").value(seen.requests);
      json.name("peakPerSecond").value(seen.peak);
      json.endObject();
    }
    json.endArray();
    json.name("untracked").value(tally.untracked());
    json.endObject();
  }

  private static void totals(JsonWriter json, ReplayReport report) {
    Replay replay = report.replay;
    json.name("total").beginObject();
    json.name("lines").value(replay.lines);
    json.name("replayed").value(report.replayed());
    json.name("skipped").value(replay.skipped);
    json.name("skips").beginArray();
    for (Replay.Skip skip : replay.skips) {
      json.beginObject().name("line").value(skip.line).name("reason").value(skip.reason);
      json.endObject();
    }
    json.endArray();
    json.name("outOfOrder").value(replay.outOfOrder);
    json.name("mostBehindSeconds").value(replay.mostBehind);
    json.name("firstTime").value(ReplayReport.time(replay.firstSecond));
    json.name("lastTime").value(ReplayReport.time(replay.latestSecond));
    json.name("spanSeconds").value(report.spanSeconds());
    json.name("replaySeconds").value(Math.round(replay.nanos / 1e6) / 1e3);
    json.name("linesPerSecond").value(report.linesPerSecond());
    json.name("denied").value(replay.denied);
    json.name("deniedPercent").value(ReplayReport.percent(replay.denied, report.replayed()));
    json.name("shadowDenied").value(replay.shadowDenied);
    json.name("identitiesFollowed").value(replay.maxIdentities);
    json.endObject();
  }
}
