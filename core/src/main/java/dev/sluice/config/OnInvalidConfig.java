package dev.sluice.config;

import dev.sluice.support.Nearest;
import java.util.Map;
import java.util.function.Consumer;
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

  /**
   * Resolves the choice by the order above; {@code explicit} is the init-param, or null. A value
   * that names no choice is logged (see {@link #locate(String, Map, Consumer)}).
   */
  public static OnInvalidConfig locate(String explicit, Map<String, String> environment) {
    return locate(
        explicit,
        environment,
        new Consumer<String>() {
          @Override
          public void accept(String warning) {
            Logger.getLogger("dev.sluice.config").warning(warning);
          }
        });
  }

  /**
   * As {@link #locate(String, Map)}, telling {@code warn} of a value that names no choice, which is
   * read as the default: a typo in a deployment setting must not stop an application that would
   * otherwise start. The agent passes its own held log here: in premain, nothing may touch {@code
   * java.util.logging} (WildFly refuses to boot if anything chose its log manager first).
   */
  public static OnInvalidConfig locate(
      String explicit, Map<String, String> environment, Consumer<String> warn) {
    String given =
        ConfigSource.firstGiven(
            explicit, System.getProperty(PROPERTY), environment.get(ENVIRONMENT));
    if (given == null) {
      return SERVE;
    }
    for (OnInvalidConfig choice : values()) {
      if (choice.name().equalsIgnoreCase(given)) {
        return choice;
      }
    }
    warn.accept(
        "Sluice: "
            + NAME
            + " must be serve or refuse_start, got \""
            + given
            + "\""
            + Nearest.hint(given, "serve", "refuse_start")
            + "; serving");
    return SERVE;
  }
}
