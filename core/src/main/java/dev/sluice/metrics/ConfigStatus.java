package dev.sluice.metrics;

import java.util.Locale;

/** Which ratelimit.yaml is in force and how the last reload went: immutable. */
public final class ConfigStatus {
  /** What a reload found. */
  public enum Reload {
    /** A valid change, now in force. */
    APPLIED,
    /** The content in force. */
    UNCHANGED,
    /** Nothing to apply: the content is invalid, unreadable or missing; see {@link #problem}. */
    REJECTED;

    /** The name the metrics and docs use: lower case. */
    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static final ConfigStatus NONE = new ConfigStatus(null, 0, 0, 0, null, null);

  private final String version;
  private final int rules;
  private final long appliedAtMillis;
  private final long lastReloadAtMillis;
  private final Reload lastReload;
  private final String problem;

  private ConfigStatus(
      String version,
      int rules,
      long appliedAtMillis,
      long lastReloadAtMillis,
      Reload lastReload,
      String problem) {
    this.version = version;
    this.rules = rules;
    this.appliedAtMillis = appliedAtMillis;
    this.lastReloadAtMillis = lastReloadAtMillis;
    this.lastReload = lastReload;
    this.problem = problem;
  }

  ConfigStatus applied(String version, int rules, long millis) {
    return new ConfigStatus(version, rules, millis, lastReloadAtMillis, lastReload, problem);
  }

  ConfigStatus reloaded(Reload result, String problem, long millis) {
    return new ConfigStatus(version, rules, appliedAtMillis, millis, result, problem);
  }

  /**
   * The first 12 hex digits of the SHA-256 of the file in force, as read: the same file gives the
   * same version on every JVM. Null while no file was ever applied.
   */
  public String version() {
    return version;
  }

  /** The rules in force: none while disabled by {@code enabled: false}. */
  public int rules() {
    return rules;
  }

  /** When the file in force was applied, in milliseconds since the epoch; 0 if never. */
  public long appliedAtMillis() {
    return appliedAtMillis;
  }

  /** When the file was last read (about every second), in milliseconds since the epoch. */
  public long lastReloadAtMillis() {
    return lastReloadAtMillis;
  }

  /** What the last reload found; null before the first. */
  public Reload lastReload() {
    return lastReload;
  }

  /** Why the last reload was rejected, as logged; null unless it was. */
  public String problem() {
    return problem;
  }
}
