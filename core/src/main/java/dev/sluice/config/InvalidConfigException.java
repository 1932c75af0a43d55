package dev.sluice.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A ratelimit.yaml that cannot be put in force, with every problem found in it. */
public final class InvalidConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<ConfigError> errors;

  InvalidConfigException(List<ConfigError> errors) {
    super(describe(errors));
    this.errors = Collections.unmodifiableList(new ArrayList<>(errors));
  }

  public List<ConfigError> errors() {
    return errors;
  }

  private static String describe(List<ConfigError> errors) {
    StringBuilder sb = new StringBuilder();
    for (ConfigError e : errors) {
      sb.append(sb.length() == 0 ? "" : "\n").append(e);
    }
    return sb.toString();
  }
}
