package dev.sluice.simulate;

import static dev.sluice.simulate.ReplayReport.count;

import dev.sluice.simulate.RuleTally.Seen;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** A replay's report for people: each rule, then the lines and the time they covered. */
final class TextReport {
  private static final String INDENT = "                  ";

  private TextReport() {}

  static void print(ReplayReport report, PrintStream out) {
    Replay replay = report.replay;
    out.println(
        "Replayed "
            + report.logFile
            + " (format "
            + report.format
            + ") through "
            + report.rulesFile
            + ": "
            + ReplayReport.count(replay.tallies().length, "rule", "rules"));
    out.println(
        "memory".equals(report.fileStore)
            ? "store: memory, one JVM"
            : "store: the file says "
                + report.fileStore
                + "; replayed in memory as one JVM (fleet size 1)");
    if (!report.enabled) {
      out.println("note: the file says enabled: false, so live nothing would be limited");
    }
    if (report.rulesFromRedis) {
      out.println(
          "note: the file says rules_from: redis, so live these rules are only the fallback,"
              + " in force until a version is published in Redis");
    }
    if (!report.notLogged.isEmpty()) {
      out.println(
          "note: the rules read "
              + String.join(", ", report.notLogged)
              + ", which the log does not carry: every request reads as without it");
    }
    for (RuleTally tally : replay.tallies()) {
      out.println();
      rule(report, tally, out);
    }
    out.println();
    totals(report, out);
  }

  private static void rule(ReplayReport report, RuleTally tally, PrintStream out) {
    out.println(
        "rule "
            + tally.rule.id()
            + ": "
            + ReplayReport.describe(tally.rule)
            + (tally.rule.shadow() ? " (shadow)" : ""));
    out.println(
        line(
            "matched",
            count(tally.matched, "request", "requests")
                + " from "
                + count(tally.identities(), "identity", "identities")));
    out.println(
        line(
            ReplayReport.denials(tally.rule),
            count(tally.denied)
                + " ("
                + ReplayReport.percent(tally.denied, tally.matched)
                + "%)"
                + (tally.rule.shadow() ? "; shadow: live it counts but never denies" : "")));
    if (tally.rule.delay() != null) {
      out.println(
          line(
              "would delay",
              count(tally.delayed)
                  + " ("
                  + ReplayReport.percent(tally.delayed, tally.matched)
                  + "%), waiting "
                  + tally.meanDelayMillis()
                  + " ms on average"));
    }
    Seen peak = report.replay.peak(tally);
    if (peak != null) {
      out.println(line("peak", count(peak.peak) + " requests in one second, " + peak.identity));
    }
    List<Seen> limited = report.replay.top(tally, report.top);
    for (int i = 0; i < limited.size(); i++) {
      Seen seen = limited.get(i);
      String text =
          seen.identity
              + "  "
              + count(seen.denied)
              + " of "
              + count(seen.requests)
              + " (peak "
              + count(seen.peak)
              + "/s)";
      out.println(i == 0 ? line("top limited", text) : INDENT + text);
    }
    if (tally.untracked() > 0) {
      out.println(
          line(
              "untracked",
              count(tally.untracked())
                  + " requests of identities beyond the first "
                  + count(report.replay.maxIdentities)
                  + ", counted in all only (as many as "
                  + (RuleTally.IDENTITY_BYTES >> 20)
                  + " MiB holds with "
                  + report.replay.tallies().length
                  + " rules)"));
    }
  }

  private static void totals(ReplayReport report, PrintStream out) {
    Replay replay = report.replay;
    out.println("all rules");
    out.println(
        line(
            "lines",
            count(replay.lines)
                + " read, "
                + count(report.replayed())
                + " replayed, "
                + count(replay.skipped)
                + " skipped"
                + (replay.skips.isEmpty() ? "" : ": " + joined(replay.skips))
                + (replay.skipped > replay.skips.size() ? "; ..." : "")));
    if (replay.outOfOrder > 0) {
      out.println(
          INDENT
              + count(replay.outOfOrder)
              + " out of order, at most "
              + ReplayReport.span(replay.mostBehind)
              + " behind: replayed at the latest time seen");
    }
    out.println(
        line(
            "log time",
            replay.firstSecond == Long.MIN_VALUE
                ? "none: no line replayed"
                : ReplayReport.time(replay.firstSecond)
                    + " to "
                    + ReplayReport.time(replay.latestSecond)
                    + " ("
                    + ReplayReport.span(report.spanSeconds())
                    + ")"));
    out.println(
        line(
            "replay",
            String.format(Locale.ROOT, "%.1f s, ", replay.nanos / 1e9)
                + count(report.linesPerSecond())
                + " lines/s"));
    out.println(
        line(
            "denied",
            count(replay.denied)
                + " requests ("
                + ReplayReport.percent(replay.denied, report.replayed())
                + "% of those replayed)"
                + (replay.shadowDenied > 0
                    ? "; shadow rules would deny " + count(replay.shadowDenied)
                    : "")));
  }

  private static String joined(List<Replay.Skip> skips) {
    StringBuilder sb = new StringBuilder();
    for (Replay.Skip skip : skips) {
      sb.append(sb.length() == 0 ? "" : "; ").append(skip);
    }
    return sb.toString();
  }

  /** {@code " matched 7,123 ..."}: a label and its text, the texts aligned. */
  private static String line(String label, String text) {
    StringBuilder sb = new StringBuilder("  ").append(label);
    do {
      sb.append(' ');
    } while (sb.length() < INDENT.length());
    return sb.append(text).toString();
  }
}
