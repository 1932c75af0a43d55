package dev.sluice.metrics;

/** The config in force as JMX shows it: {@code dev.sluice:type=Config,context=…}. */
public interface ConfigMXBean {
  /** The first 12 hex digits of the SHA-256 of the file in force; empty while none. */
  String getRulesVersion();

  int getRules();

  long getAppliedAtMillis();

  long getLastReloadAtMillis();

  /** applied, unchanged or rejected; empty before the first reload. */
  String getLastReloadResult();

  /** Why the last reload was rejected; empty unless it was. */
  String getLastReloadProblem();
}
