package dev.sluice.simulate;

import dev.sluice.config.Config;
import dev.sluice.core.Rule;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;

/**
 * A finished replay and what it was run on, with the wording both renderings share: {@link
 * TextReport} for people, {@link JsonReport} for machines.
 */
final class ReplayReport {
  final String rulesFile;
  final String logFile;
  final String format;

  /** The store the file names: the replay counts in memory, in one JVM, whatever it says. */
  final String fileStore;

  /** False when the file says {@code enabled: false}: live, nothing would be limited. */
  final boolean enabled;

  /**
   * True when the file says {@code rules_from: redis}: live, its rules are in force only until a
   * version is published in Redis.
   */
  final boolean rulesFromRedis;

  final int top;
  final Replay replay;

  /** Headers (and the user) the rules asked of requests that the log does not carry. */
  final Set<String> notLogged;

  ReplayReport(
      String rulesFile,
      String logFile,
      String format,
      Config config,
      int top,
      Replay replay,
      Set<String> notLogged) {
    this.rulesFile = rulesFile;
    this.logFile = logFile;
    this.format = format;
    this.fileStore = config.store().type();
    this.enabled = config.enabled();
    this.rulesFromRedis = config.rulesFromRedis();
    this.top = top;
    this.replay = replay;
    this.notLogged = notLogged;
  }

  long replayed() {
    return replay.lines - replay.skipped;
  }

  /** Lines replayed per second of the JVM's time, not the log's. */
  long linesPerSecond() {
    return replay.nanos == 0 ? 0 : (long) (replay.lines * 1e9 / replay.nanos);
  }

  /** Seconds from the log's first time to its latest; 0 for an empty log. */
  long spanSeconds() {
    return replay.firstSecond == Long.MIN_VALUE ? 0 : replay.latestSecond - replay.firstSecond;
  }

  /** {@code 2000-10-10T20:55:36Z}, or null before any line was replayed. */
  static String time(long epochSecond) {
    return epochSecond == Long.MIN_VALUE ? null : Instant.ofEpochSecond(epochSecond).toString();
  }

  /** {@code 2d 3h 4m 5s}, from the largest unit that is not zero. */
  static String span(long seconds) {
    long[] amounts = {seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60};
    String[] units = {"d", "h", "m", "s"};
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < units.length; i++) {
      if (sb.length() > 0 || amounts[i] > 0 || i == units.length - 1) {
        sb.append(sb.length() > 0 ? " " : "").append(amounts[i]).append(units[i]);
      }
    }
    return sb.toString();
  }

  /** What a rule's denials are: {@code 429s} (or its own status), or a shadow rule's. */
  static String denials(Rule rule) {
    return rule.shadow() ? "would deny" : "would-be " + rule.response().status() + "s";
  }

  /** Share of {@code part} in {@code whole}, one decimal: {@code 16.9}. */
  static double percent(long part, long whole) {
    return whole == 0 ? 0 : Math.round(part * 1000.0 / whole) / 10.0;
  }

  /** {@code 5/1m token_bucket, POST /login, by ip}: enough to tell the rules apart. */
  static String describe(Rule rule) {
    String methods = rule.methods().isEmpty() ? "" : String.join(",", rule.methods()) + " ";
    String paths = rule.paths().size() == 1 ? rule.paths().get(0).toString() : rule.paths() + "";
    return rule.quota().limit()
        + "/"
        + window(rule.quota().windowMicros())
        + " "
        + rule.algorithm().name().toLowerCase(Locale.ROOT)
        + ", "
        + methods
        + paths
        + ", by "
        + rule.key();
  }

  /** A window in the largest unit that divides it: {@code 1m}, {@code 90s}, {@code 500ms}. */
  static String window(long micros) {
    long[] unitMicros = {86_400_000_000L, 3_600_000_000L, 60_000_000L, 1_000_000L, 1_000L};
    String[] units = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (micros % unitMicros[i] == 0) {
        return micros / unitMicros[i] + units[i];
      }
    }
    return micros + "us";
  }

  /** {@code 1,234,567}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code n} with its noun, singular for one: "1 identity", "2,000 identities". */
  static String count(long n, String one, String many) {
    return count(n) + " " + (n == 1 ? one : many);
  }
}
