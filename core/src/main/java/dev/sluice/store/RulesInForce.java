package dev.sluice.store;

/**
 * The version of the rules in force, for the stores' own log lines: a Redis breaker opening or the
 * fleet changing size is read beside the reloads, and the version tells which rules met it.
 *
 * <p>One per class loader rather than one per store: the Redis store connects, and may log that
 * Redis is failing, while it is being opened, before a version could be handed to it; and passing
 * one through each store's constructor would tie every store to the config for a log line. A class
 * loader runs one limiter in practice (the agent's, or a web application's Filter); should two
 * apply rules, the stores name the version applied last.
 */
public final class RulesInForce {
  /** The version named while no rules were ever in force. */
  public static final String NONE = "none";

  private static volatile String version = NONE;

  private RulesInForce() {}

  /** From now on the stores' log lines name {@code version}. */
  public static void version(String version) {
    RulesInForce.version = version;
  }

  /** How the stores' log lines name the rules in force: {@code (rules version 0a1b2c3d4e5f)}. */
  public static String named() {
    return named(version);
  }

  /** How a log line names the rules of {@code version}, so that one grep finds every line. */
  public static String named(String version) {
    return "(rules version " + version + ")";
  }
}
