package dev.sluice.config;

import dev.sluice.admin.AdminSettings;
import dev.sluice.core.Rules;
import java.util.Collections;
import java.util.List;

/**
 * A valid ratelimit.yaml: the rules to apply, the store to keep counts in, and whether Sluice is
 * enabled at all ({@code enabled: false} is the kill switch: every request passes, unlimited).
 */
public final class Config {
  private final StoreSettings store;
  private final Rules rules;
  private final boolean enabled;
  private final List<ConfigError> warnings;
  private final MetricsSettings metrics;
  private final AdminSettings admin;
  private final long shadowForMicros;

  Config(
      StoreSettings store,
      Rules rules,
      boolean enabled,
      List<ConfigError> warnings,
      MetricsSettings metrics,
      AdminSettings admin,
      long shadowForMicros) {
    this.store = store;
    this.rules = rules;
    this.enabled = enabled;
    this.warnings = Collections.unmodifiableList(warnings);
    this.metrics = metrics;
    this.admin = admin;
    this.shadowForMicros = shadowForMicros;
  }

  /** False when the file says {@code enabled: false}; its rules are still checked, not applied. */
  public boolean enabled() {
    return enabled;
  }

  public StoreSettings store() {
    return store;
  }

  public Rules rules() {
    return rules;
  }

  MetricsSettings metrics() {
    return metrics;
  }

  /** {@code rollout.shadow_for}: how long a rule a reload adds or changes runs in shadow; or 0. */
  long shadowForMicros() {
    return shadowForMicros;
  }

  /** The admin endpoint's settings; null when the file has no {@code admin} section. */
  AdminSettings admin() {
    return admin;
  }

  /** What is valid but likely not meant, e.g. a rule's limit for a tier no request can have. */
  public List<ConfigError> warnings() {
    return warnings;
  }
}
