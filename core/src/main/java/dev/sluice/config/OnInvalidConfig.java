package dev.sluice.config;

import dev.sluice.support.Nearest;
import java.util.Map;
import java.util.logging.Logger;

/**
 * What to do when the application starts without a valid ratelimit.yaml (missing, unreadable or
 * invalid). A field of the file cannot say it, since the file is what is broken: it is the Filter's
 * init-param or the agent's argument {@code on_invalid_config}, else the system property {@code
 * sluice.on_invalid_config}, else the environment variable {@code SLUICE_ON_INVALID_CONFIG}. Only
 * the start is concerned: a later invalid edit always keeps the rules in force.
 */
public enum OnInvalidConfig {
  /** Serve, limiting nothing, and log loudly until a valid file appears: the default. */
  SERVE,
  /** Refuse to start, for teams who prefer a failed deploy to one without limits. */
  REFUSE_START;

  public static final String NAME = "on_invalid_config";
  public static final String PROPERTY = "sluice." + NAME;
  public static final String ENVIRONMENT = "SLUICE_ON_INVALID_CONFIG";

  /** Resolves the choice by the order above; {@code explicit} is the init-param, or null. */
  public static OnInvalidConfig locate(String explicit, Map<String, String> environment) {
    String given =
        ConfigSource.firstGiven(
            explicit, System.getProperty(PROPERTY), environment.get(ENVIRONMENT));
    return given == null ? SERVE : parse(given);
  }

  /**
   * The choice {@code text} names. Anything else is logged and read as the default: a typo in a
   * deployment setting must not stop an application that would otherwise start.
   */
  private static OnInvalidConfig parse(String text) {
    for (OnInvalidConfig choice : values()) {
      if (choice.name().equalsIgnoreCase(text)) {
        return choice;
      }
    }
    // Looked up here, not held: the agent reads this choice in premain, where it must not touch
    // java.util.logging unless it has to.
    Logger.getLogger("dev.sluice.config").warning(
        "Sluice: "
            + NAME
            + " must be serve or refuse_start, got \""
            + text
            + "\""
            + Nearest.hint(text, "serve", "refuse_start")
            + "; serving");
    return SERVE;
  }
}
